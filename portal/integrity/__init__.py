"""Records verification (§ 811a.7, § 810a.11): the rows beside the hash chains, compliance
records, ledger entries and wallets, still say what the audit trail and the rounds say.

It reads the audit, compliance and game apps, so it sits above them; none of them imports
it. Its page joins the audit pages (``audit:records``) where the portal mounts them."""
