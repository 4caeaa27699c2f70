"""The pages of the player's money: the player's own accounts (``account``) and statements
(``statements``), and the holder's side (``payments``: the payments queue, a withdrawal,
its players' accounts)."""
