"""What the player's account reads to set a limit, confirm a raise or pause play (§ 814a.2),
under /api/accounts/{id}/ (``accounts.AccountViewSet``'s actions)."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.fields import empty

from portal.api.fields import StrictInput
from portal.game.api_fields import GivenChoice, GivenInteger
from portal.game.money.limits import UNKNOWN_KIND, LimitKind


class LimitKindField(GivenChoice):
    """A limit's kind: a string is handed to ``limits`` as given (its message names every
    kind); anything else is refused here with the same message."""

    def __init__(self, **kwargs) -> None:
        super().__init__(choices=[(k.value, k.label) for k in LimitKind], **kwargs)

    def run_validation(self, data=empty):
        if data is not empty and not isinstance(data, str):
            kinds = ", ".join(k.label for k in LimitKind)
            raise serializers.ValidationError(UNKNOWN_KIND.format(kinds=kinds))
        return super().run_validation(data)


class LimitIn(StrictInput):
    """One responsible-gaming limit (§ 814a.2): lower takes effect at once; higher, or null
    (no limit), once the current period has ended and the player confirms it."""

    kind = LimitKindField()
    value = GivenInteger(allow_null=True, help_text="Cents (minutes for time_day); null: no limit.")


# Its values are documented once, on LimitIn (an enum in two bodies has no one name).
@extend_schema_field(OpenApiTypes.STR)
class ConfirmedKindField(LimitKindField):
    pass


class LimitConfirmIn(StrictInput):
    kind = ConfirmedKindField(help_text="The kind of limit whose raise to confirm (as LimitIn's).")


class PauseIn(StrictInput):
    """The player's own suspension of play and deposits with the holder (§ 814a.2): hours
    or days, one of them."""

    hours = GivenInteger(required=False, help_text="1 to 720.")
    days = GivenInteger(required=False, help_text="1 to 365.")
