"""What the record pages and the API show of compliance records, beyond their fields:
``edge`` (a paytable's exact house edge), ``diffs`` (a version against the approved one),
``history`` (each audit event's changes), ``decisions`` (why one may not decide)."""
