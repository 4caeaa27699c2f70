"""Play: the tables and a round at one of them (§ 617b.8), the player's games and their
replays (§ 810a.11), every round for staff, and the round chains' verification.

Above the voids and adjustments of rounds (``portal.game.corrections``), which a round's
record shows and where one is proposed, and the player's money
(``portal.game.money``), which a round stakes and returns."""
