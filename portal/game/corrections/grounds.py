"""What an adjustment rests on (reading:adjustment-grounds, § 812a.7(a)(9)).

- A **credit** rests on an upheld dispute (the complaint it settles) or on a recorded payout
  error.
- A **debit** rests only on a recorded payout error, never on a complaint.
- A **recorded payout error** is a round whose recorded returns differ from what ``jinzi``
  settles again under the round's recorded paytable and wheel, or an officer's written
  finding recorded on the round (``payout_finding_record``).
- The one adjustment a void round takes (``composition``) rests on its void.

Adjustments made before grounds were recorded stay as they are.
"""

from __future__ import annotations

import jinzi
from portal.game.models import AdjustmentGround, Bet, PayoutFinding, Round


def resettles_otherwise(round_obj: Round) -> bool:
    """Whether the round's bets, settled again by ``jinzi`` under its recorded paytable and
    wheel, return other than what was recorded (one query, its bets)."""
    bets = list(Bet.objects.filter(round=round_obj).order_by("position"))
    try:
        table = jinzi.SettlementTable.for_(
            jinzi.Paytable.of(round_obj.paytable_odds),
            jinzi.Wheel.of(round_obj.wheel_order, round_obj.first_colour),
        )
        again = table.settle_columns(
            round_obj.outcome,
            [jinzi.Wager.parse(bet.spot).spot_index for bet in bets],
            [bet.stake for bet in bets],
        )
    except (jinzi.JinziError, KeyError, ValueError, TypeError):
        return True  # what cannot be settled again was not paid as the rule says
    return again != [bet.returned for bet in bets]


def payout_error(round_obj: Round, finding: PayoutFinding | None) -> AdjustmentGround | None:
    """The recorded payout error of ``round_obj``, if any: the officer's finding given, or
    the round settling otherwise when settled again."""
    if finding is not None:
        return AdjustmentGround.FINDING
    if resettles_otherwise(round_obj):
        return AdjustmentGround.RESETTLED
    return None
