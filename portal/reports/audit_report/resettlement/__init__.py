"""The audit report's one pass over every bet (``resettle``): every bet settled again, every
round's exact moments, every round's place in its player's hash chain; read a round at a
time through the ORM (``reference_pass``) or a block of columns at a time on PostgreSQL
(``columnar_pass``), with the same findings (``findings``), which the parts of a period
split over several workers join into (``finishing``).
"""
