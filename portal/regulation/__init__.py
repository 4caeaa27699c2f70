"""Clause traceability: the register of clauses we apply, where the code applies each, and
the tests that prove it (``register``, ``citations``, ``matrix``; ``manage.py clauses``)."""
