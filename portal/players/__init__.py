"""Players: registration, identity, terms and the Board's self-exclusion list
(§ 812a.2, § 815a.4)."""
