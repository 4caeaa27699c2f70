"""The players app's writes: registration (``registration``), reading and verifying the
identity (``verification``), exclusions (``exclusion``), the Board's list
(``exclusion_list``) and the rotation of the player file's keys (``keys``)."""
