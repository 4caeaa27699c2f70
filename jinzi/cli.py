"""``python -m jinzi``: look at the layout, the wheel and the wagers, settle a bet and
print the exact house edge of a paytable. Errors go to stderr with exit status 2."""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from jinzi.edge import EVERY_EVEN_STAKE, edge_table, format_percent, hold_range, paytable_flags
from jinzi.errors import JinziError
from jinzi.game import GAME_NAME, GAME_VERSION, ZERO
from jinzi.layout import LAYOUT_ROWS
from jinzi.paytable import MINIMUM_ODDS, MINIMUM_PAYTABLE, Paytable, format_odds
from jinzi.rng import draw
from jinzi.settlement import HALF, settle, unit_return
from jinzi.wagers import LEGAL_WAGERS, Wager, parse_kind
from jinzi.wheel import STANDARD_WHEEL, Colour, Wheel, check_outcome

EXIT_USAGE = 2

PAYTABLE_UNREADABLE = "cannot read paytable file {path}: {reason}"
PAYTABLE_NOT_JSON = "paytable {path} is not valid JSON: {reason}"
SPOT_WITH_NUMBERS = "give either a spot like split:1-2 or a kind and its numbers, not both"

_ANSI = {Colour.RED: "\x1b[31m", Colour.BLACK: "\x1b[1;37;40m", Colour.WHITE: "\x1b[1m"}
_ANSI_RESET = "\x1b[0m"
_INTEGER = re.compile(r"-?[0-9]{1,18}")


def _integer_or_text(text: str) -> int | str:
    """A whole number if ``text`` is one; otherwise the text, for the domain to reject."""
    return int(text) if _INTEGER.fullmatch(text) else text


def _use_ansi(stream: TextIO) -> bool:
    return stream.isatty() and "NO_COLOR" not in os.environ


def _swatch(number: int, wheel: Wheel, ansi: bool, width: int) -> str:
    """``number`` and its colour's initial, right-aligned in ``width``; ANSI only on a tty."""
    colour = wheel.color(number)
    text = f"{number}{colour.value[0].upper()}"
    padding = " " * (width - len(text))
    return padding + (f"{_ANSI[colour]}{text}{_ANSI_RESET}" if ansi else text)


def _load_paytable(path: str | None) -> tuple[Paytable, str]:
    if path is None:
        return MINIMUM_PAYTABLE, "the § 617b.8(f) minimum"
    where = "on stdin" if path == "-" else repr(path)
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise JinziError(PAYTABLE_UNREADABLE.format(path=where, reason=error.strerror)) from None
    except UnicodeDecodeError as error:
        raise JinziError(PAYTABLE_UNREADABLE.format(path=where, reason=error.reason)) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise JinziError(PAYTABLE_NOT_JSON.format(path=where, reason=error)) from None
    return Paytable.from_dict(data), where


def _wheel(args: argparse.Namespace) -> Wheel:
    order = STANDARD_WHEEL.text if args.order is None else args.order
    # --first is not limited to choices: Wheel judges it, so a bad one cites § 617b.8(c).
    return Wheel.from_text(order, args.first)


def _cmd_layout(args: argparse.Namespace, out: TextIO) -> None:
    wheel, ansi = _wheel(args), _use_ansi(out)
    rule = "+-----+-----+-----+"
    print(f"{GAME_NAME} layout, wheel {wheel.text}, {wheel.first} after 0", file=out)
    print("+-----------------+", file=out)
    print("|" + _swatch(ZERO, wheel, ansi, 9) + "        |", file=out)
    print(rule, file=out)
    for row in LAYOUT_ROWS:
        print("|" + "|".join(_swatch(n, wheel, ansi, 4) + " " for n in row) + "|", file=out)
        print(rule, file=out)
    print("R red, B black, W white", file=out)


def _cmd_wheel(args: argparse.Namespace, out: TextIO) -> None:
    wheel = _wheel(args)
    print(f"Wheel, clockwise from 0: {wheel.text}", file=out)
    print(f"First after 0: {wheel.first}", file=out)
    print("position  number  colour", file=out)
    for position, number in enumerate(wheel.order):
        print(f"{position:>8}  {number:>6}  {wheel.color(number)}", file=out)
    print("red:   " + ", ".join(map(str, sorted(wheel.red))), file=out)
    print("black: " + ", ".join(map(str, sorted(wheel.black))), file=out)


def _cmd_wagers(args: argparse.Namespace, out: TextIO) -> None:
    wheel = _wheel(args)
    print(f"{'#':>2}  {'spot':<20}  {'covers':<22}  minimum odds", file=out)
    for wager in LEGAL_WAGERS:
        covers = ",".join(map(str, sorted(wager.covers(wheel))))
        odds = format_odds(MINIMUM_ODDS[wager.kind])
        print(f"{wager.spot_index:>2}  {wager.spot:<20}  {covers:<22}  {odds}", file=out)
    print(f"{len(LEGAL_WAGERS)} legal spots (§ 617b.8(d))", file=out)


def _wager_from(kind: str, numbers: Sequence[str]) -> Wager:
    if ":" in kind:
        if numbers:
            raise JinziError(SPOT_WITH_NUMBERS)
        return Wager.parse(kind)
    return Wager(parse_kind(kind), tuple(map(_integer_or_text, numbers)))


def _cmd_settle(args: argparse.Namespace, out: TextIO) -> None:
    wager = _wager_from(args.kind, args.numbers)
    paytable, _ = _load_paytable(args.paytable)
    wheel = _wheel(args)
    stake = _integer_or_text(args.stake)
    outcome = check_outcome(_integer_or_text(args.outcome))
    returned = settle(wager, stake, outcome, paytable=paytable, wheel=wheel)
    multiple = unit_return(wager, outcome, paytable=paytable, wheel=wheel)
    if multiple == HALF:
        result = "half back: 0 came up and the wager is not placed on zero (§ 617b.8(g)(2))"
    elif multiple:
        result = f"win, paid {format_odds(paytable.odds(wager.kind))}"
    else:
        result = "loss"
    print(f"wager     {wager.label}", file=out)
    print(f"stake     {stake}", file=out)
    print(f"outcome   {outcome} ({wheel.color(outcome)})", file=out)
    print(f"result    {result}", file=out)
    print(f"returned  {returned}", file=out)


def _cmd_edge(args: argparse.Namespace, out: TextIO) -> None:
    paytable, source = _load_paytable(args.paytable)
    wheel = _wheel(args)
    print(f"Exact house edge, paytable {source}, wheel {wheel.text}", file=out)
    header = f"{'wager':<14} {'odds':>9} {'spots':>5}  {'lowest':<20} highest"
    print(header, file=out)
    # reading:round-up: what each even stake from 2 cents is actually paid, as the portal
    # shows it (with whole or half odds, the odds' own edge).
    for row in edge_table(paytable, wheel, stakes=EVERY_EVEN_STAKE):
        odds = format_odds(row.odds)
        low, high = (f"{v} = {format_percent(v)}" for v in (row.lowest, row.highest))
        line = f"{row.label:<14} {odds:>9} {row.spots:>5}  {low:<20} {high}"
        print(line, file=out)
    # reading:expected-win: a period's hold follows the mix of bets, so give its range.
    print("Range of hold (lowest to highest spot edge):", file=out)
    bands = hold_range(paytable, wheel, stakes=EVERY_EVEN_STAKE)
    for label, (low, high) in (
        ("wagers not covering 0", bands.not_covering_zero),
        ("wagers covering 0", bands.covering_zero),
    ):
        span = f"{low} = {format_percent(low)}"
        if high != low:
            span += f" to {high} = {format_percent(high)}"
        print(f"  {label:<22} {span}", file=out)
    for flag in paytable_flags(paytable, wheel, stakes=EVERY_EVEN_STAKE):
        print(f"WARNING: {flag.message}", file=out)


def _cmd_spin(args: argparse.Namespace, out: TextIO) -> None:
    wheel = _wheel(args)
    result = draw()
    print(f"outcome   {result.outcome} ({wheel.color(result.outcome)})", file=out)
    print(f"raw       {result.raw}", file=out)
    print(f"method    {result.method}", file=out)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m jinzi", description=f"{GAME_NAME} engine.")
    parser.add_argument("--version", action="version", version=f"{GAME_NAME} {GAME_VERSION}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, handler: object, help_text: str) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=help_text, description=help_text)
        sub.add_argument(
            "--order", metavar="0,1,7,...", help="wheel order clockwise from 0 (default: standard)"
        )
        sub.add_argument(
            "--first",
            metavar="{red,black}",
            default="red",
            help="colour of the compartment after 0 (default: red)",
        )
        sub.set_defaults(handler=handler)
        return sub

    command("layout", _cmd_layout, "print the table layout with the wheel's colours")
    command("wheel", _cmd_wheel, "print the wheel order and its colours")
    command("wagers", _cmd_wagers, "list the 52 legal bet spots")
    settle_parser = command("settle", _cmd_settle, "settle one bet")
    settle_parser.add_argument("kind", metavar="KIND", help="wager kind, or a spot like split:1-2")
    settle_parser.add_argument("numbers", metavar="NUMBERS", nargs="*", help="numbers bet on")
    settle_parser.add_argument("--stake", required=True, help="stake in minor units (even)")
    settle_parser.add_argument("--outcome", required=True, help="winning number 0-12")
    settle_parser.add_argument("--paytable", metavar="FILE.json", help="paytable ('-' for stdin)")
    edge_parser = command("edge", _cmd_edge, "print the exact house edge of a paytable")
    edge_parser.add_argument("--paytable", metavar="FILE.json", help="paytable ('-' for stdin)")
    command("spin", _cmd_spin, "draw one outcome from the CSPRNG")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        args.handler(args, sys.stdout)
        sys.stdout.flush()
    except JinziError as error:
        print(f"jinzi: error: {error.message}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:
        # The reader (e.g. `head`) went away; stop quietly like other Unix commands.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return 0
