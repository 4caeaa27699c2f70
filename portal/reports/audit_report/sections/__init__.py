"""The audit report's sections, in the document's order: the hold tables (``summary``), the
proofs (``checks``), the exceptions (``exceptions``, with ``voids_and_adjustments``) and
the detail, one row per bet (``detail``).
"""
