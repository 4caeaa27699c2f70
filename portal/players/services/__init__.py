"""The players app's writes: registration and verification (``registration``), exclusions
(``exclusion``)."""
