"""English, as Django's own but for instants: "2026-11-30 10:26:12 EST", the pages' form
(``pa_time``), with the zone in the current time zone (the admin's is Pennsylvania's)."""

DATETIME_FORMAT = "Y-m-d H:i:s T"
SHORT_DATETIME_FORMAT = "Y-m-d H:i T"
