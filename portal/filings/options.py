"""What a rules submission chose under each clause of § 617b.8, in words, for the filing
package's table of the rule beside the submission (reading:filing-package)."""

from __future__ import annotations

import jinzi
from portal.filings.contents import Filing, Listing


def _numbers(numbers) -> str:
    return ", ".join(str(n) for n in sorted(numbers))


def _listing_words(item: Listing) -> str:
    return (
        f"Listed with paytable '{item.paytable.name}' v{item.paytable.version} and layout "
        f"'{item.layout.title}' v{item.layout.version}; stakes {item.stakes_words}."
    )


def _layout_words(item: Listing) -> str:
    layout = item.layout
    reference = f", reference {layout.reference_number}" if layout.reference_number else ""
    return (
        f"Layout '{layout.title}' v{layout.version} ({layout.get_status_display().lower()}"
        f"{reference}), filed to the Bureau of Gaming Operations with its schematic in section 2."
    )


def _wheel_words(item: Listing) -> str:
    wheel = item.wheel
    if wheel is None:
        return f"Layout '{item.layout.title}': the wheel does not read ({item.wheel_error})."
    return (
        f"Layout '{item.layout.title}': clockwise from 0: {', '.join(map(str, wheel.order))}; "
        f"{wheel.first.value} first after 0. Red {_numbers(wheel.red)}; black "
        f"{_numbers(wheel.black)}; 0 white."
    )


def _odds_words(item: Listing) -> str:
    paytable = jinzi.Paytable.of(item.paytable.odds)
    above = [
        f"{jinzi.KIND_LABELS[kind]} {jinzi.format_odds(paytable.odds(kind))} to 1"
        for kind in jinzi.WagerKind
        if paytable.odds(kind) != jinzi.MINIMUM_ODDS[kind]
    ]
    pays = "; pays more than the minimum on: " + ", ".join(above) if above else ", the minimum"
    return (
        f"Paytable '{item.paytable.name}' v{item.paytable.version}{pays}. A return that these "
        "odds make fractional is rounded up to the cent (reading:round-up)."
    )


def _each(filing: Filing, words, items) -> str:
    return " ".join(words(item) for item in items) or "No game is listed."


def clause_options(filing: Filing) -> dict[str, str]:
    """Per clause id ("617b.8(f)"), what the submission chose under it; clauses it makes
    no choice under are absent."""
    submission = filing.submission
    options = {
        "617b.8(a)": (
            f"Rules submission '{submission.title}' v{submission.version} of {filing.holder} "
            f"lists Jinzi Roulette, offered as an interactive game. "
            + _each(filing, _listing_words, filing.listings)
        ),
        "617b.8(b)": _each(filing, _layout_words, filing.layouts),
        "617b.8(c)": _each(filing, _wheel_words, filing.layouts),
        "617b.8(d)": (
            f"Every wager of (d)(1) to (d)(10) is offered: {jinzi.SPOT_COUNT} bet spots in all, "
            "each placed before no more bets is called."
        ),
        "617b.8(e)": (
            f"The outcome is drawn after betting closes by the operating system's "
            f"cryptographically strong generator ({jinzi.RNG_METHOD}); the winning number is "
            f"shown to the player. Game software {filing.identity.short}."
        ),
        "617b.8(g)": (
            "A straight up on 0 is paid at the paytable's straight-up odds "
            "(reading:straight-zero-floor); every wager that does not cover 0 returns half its "
            "stake when 0 wins, and one that covers 0 is paid at its odds "
            "(reading:placed-on-zero). Stakes are multiples of 2 cents, so that half of every "
            "stake is exact (reading:even-stakes)."
        ),
    }
    try:
        options["617b.8(f)"] = _each(filing, _odds_words, filing.paytables)
    except jinzi.JinziError as error:
        options["617b.8(f)"] = f"The paytable's odds do not read: {error}"
    return options
