"""The audit report's figures: the database's sums (``sums``), the sums by spot with their
exact expected win (``spots``), the hold of each group (``hold``), the reconciliation's
money (``reconciliation``) and the charts' data (``chart_data``).
"""
