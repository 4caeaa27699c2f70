"""Money for a test's players: demo deposits into their account with a holder.

``wallet_top_up`` keeps the shape of the single wallet's top-up the older tests were
written against: without ``holder`` the money goes to the holder of the first table (the
one most tests play), or the first holder when there is no table.
"""

from __future__ import annotations

from portal.compliance.models import CertificateHolder, Offering
from portal.game.funds import MAX_DEMO_TOP_UP, deposit_make
from portal.game.models import DepositMethod, GamingAccount


def default_holder() -> CertificateHolder:
    first = Offering.objects.order_by("pk").select_related("holder").first()
    return first.holder if first is not None else CertificateHolder.objects.order_by("pk")[0]


def wallet_top_up(*, player, amount: int, holder=None) -> GamingAccount:
    """``amount`` deposited by the demo method (in deposits of at most the demo's cap)."""
    holder = holder or default_holder()
    left = amount
    while left > 0:
        step = min(left, MAX_DEMO_TOP_UP)
        deposit_make(player=player, holder_id=holder.pk, amount=step, method=DepositMethod.DEMO)
        left -= step
    return GamingAccount.objects.get(player=player, holder=holder)
