"""Voids (§ 617a.6) and adjustments (§ 812a.7(a)(9)) of settled rounds, proposed by one
person and decided by another (reading:voids-and-adjustments): ``workflow`` declares the
steps and four-eyes, ``services`` take them (and move the money, through
``portal.game.money``), and the pages, the API and the admin read both.

Below the round's pages (``portal.game.play``), which show a round's corrections and
where one is proposed; above the player's money, whose locks a decision takes."""
