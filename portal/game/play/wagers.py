"""Reading a round's wagers from a request into ``jinzi`` objects, before any money moves."""

from __future__ import annotations

from dataclasses import dataclass

import jinzi
from portal.core.errors import ValidationFailed
from portal.core.money import dollars
from portal.game.play import messages as msg

MAX_WAGERS = jinzi.SPOT_COUNT  # one wager per bet spot at most
_FIELDS = {"kind", "numbers", "stake"}


@dataclass(frozen=True)
class PlacedWager:
    wager: jinzi.Wager
    stake: int


def _one(index: int, raw) -> PlacedWager:
    field = f"wagers[{index}]"
    if not isinstance(raw, dict):
        raise ValidationFailed.on(field, msg.NOT_AN_OBJECT)
    unknown = set(raw) - _FIELDS
    if unknown:
        raise ValidationFailed.on(
            field, msg.UNKNOWN_FIELDS.format(fields=", ".join(sorted(unknown)))
        )
    stake = raw.get("stake")
    if type(stake) is not int:
        raise ValidationFailed.on(field, msg.STAKE_NOT_INT.format(got=repr(stake)))
    numbers = raw.get("numbers", [])
    if isinstance(numbers, list):
        numbers = tuple(numbers)
    try:
        wager = jinzi.Wager.of(raw.get("kind"), numbers)
        jinzi.check_stake(stake)
    except jinzi.JinziError as exc:
        raise ValidationFailed.on(field, str(exc)) from None
    return PlacedWager(wager, stake)


def parse_wagers(raw) -> list[PlacedWager]:
    """Validate shape, legality (§ 617b.8(d)) and stakes (even, § 617b.8(g)); no limits yet."""
    if not isinstance(raw, list):
        raise ValidationFailed.on("wagers", msg.NOT_A_LIST)
    if not raw:
        raise ValidationFailed.on("wagers", msg.NO_WAGERS)
    if len(raw) > MAX_WAGERS:
        raise ValidationFailed.on("wagers", msg.TOO_MANY.format(limit=MAX_WAGERS, count=len(raw)))
    placed = [_one(index, item) for index, item in enumerate(raw)]
    seen: set[str] = set()
    for item in placed:
        if item.wager.spot in seen:
            raise ValidationFailed.on("wagers", msg.SPOT_TWICE.format(spot=item.wager.label))
        seen.add(item.wager.spot)
    return placed


def check_limits(placed: list[PlacedWager], listing) -> int:
    """The table limits of the rules submission's listing; returns the round's total stake.
    A refusal names the amounts in dollars, as the player reads them."""
    errors: list[str] = []
    for item in placed:
        spot, stake = item.wager.label, item.stake
        if stake % listing.chip_unit:
            errors.append(
                msg.NOT_CHIP_MULTIPLE.format(
                    stake=dollars(stake), spot=spot, chip=dollars(listing.chip_unit)
                )
            )
        if stake < listing.min_wager:
            errors.append(
                msg.BELOW_MIN.format(
                    stake=dollars(stake), spot=spot, minimum=dollars(listing.min_wager)
                )
            )
        if stake > listing.max_wager:
            errors.append(
                msg.ABOVE_MAX.format(
                    stake=dollars(stake), spot=spot, maximum=dollars(listing.max_wager)
                )
            )
    total = sum(item.stake for item in placed)
    if total > listing.max_round_stake:
        errors.append(
            msg.ROUND_ABOVE_MAX.format(
                total=dollars(total), maximum=dollars(listing.max_round_stake)
            )
        )
    if errors:
        raise ValidationFailed(" ".join(errors), field_errors={"wagers": errors})
    return total
