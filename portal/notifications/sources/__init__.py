"""What happened, turned into notices: the audit trail's events (``actions`` says which
source takes an event) and the report runs (``runs``).

Each function takes one event (or run) and returns the notices it makes, each for the
people concerned, in plain words, with the page it is about. An event no kind is about
makes none.
"""
