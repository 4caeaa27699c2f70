"""The player's money with the certificate holders (Chapter 812a): their accounts, deposits
and withdrawals, the holders' restrictions, the player's own limits (§ 814a.2), their
statements (§ 812a.11), and the holders' payments queue.

Below play and the corrections of rounds, which move the money under its locks
(``selectors.locked``) and ask its limits before a round."""
