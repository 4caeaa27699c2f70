"""The audit report's readers: the scope's rounds, bets and ledger entries as the ORM streams
them (the reference, and the route on SQLite) and as PostgreSQL's COPY hands them over, a
block of columns at a time. The columns each reader reads are declared once (``columns``).
"""
