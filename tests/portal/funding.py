"""Money for a test's players: demo deposits into their account with a holder.

``wallet_top_up`` keeps the shape of the single wallet's top-up the older tests were
written against: without ``holder`` the money goes to the holder of the first table (the
one most tests play), or the first holder when there is no table.
"""

from __future__ import annotations

from portal.compliance.models import CertificateHolder, Offering
from portal.game.models import DepositMethod, GamingAccount
from portal.game.money.services.deposits import MAX_DEMO_TOP_UP, deposit_make


def default_holder() -> CertificateHolder:
    first = Offering.objects.order_by("pk").select_related("holder").first()
    return first.holder if first is not None else CertificateHolder.objects.order_by("pk")[0]


def wallet_top_up(*, player, amount: int, holder=None) -> GamingAccount:
    """``amount`` deposited by the demo method (in deposits of at most the demo's cap)."""
    holder = holder or default_holder()
    # Whole deposits of the cap, then the rest; an amount the service refuses goes as it is.
    if type(amount) is not int or amount <= 0:
        steps = [amount]
    else:
        whole, rest = divmod(amount, MAX_DEMO_TOP_UP)
        steps = [MAX_DEMO_TOP_UP] * whole + ([rest] if rest else [])
    for step in steps:
        deposit_make(player=player, holder_id=holder.pk, amount=step, method=DepositMethod.DEMO)
    return GamingAccount.objects.get(player=player, holder=holder)
