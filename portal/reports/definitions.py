"""Which reports exist, what parameters each takes, and how each is built.

A definition reads its parameters from a request (raising ``ValidationFailed`` with the
field), and builds the report's document (``portal.reports.document``) from them.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import jinzi
from portal.accounts.models import CertificateHolder
from portal.compliance.models import Offering
from portal.core.errors import ValidationFailed
from portal.core.padates import pa_today
from portal.reports import expiry
from portal.reports.models import ReportKind

AS_OF_TEXT = "as_of is a Pennsylvania date, YYYY-MM-DD (DOMAIN.md 2a)"
AS_OF_RANGE = "as_of must fall between 2025-06-14 and 2028-06-14 (§ 617b.8's life, 55 Pa.B. 4012)"
NO_SUCH_HOLDER = "there is no certificate holder {id}"
NO_SUCH_OFFERING = "there is no offering {id}"
UNKNOWN_PARAMETERS = "unknown parameter(s) {names}; this report takes {known}"


@dataclass(frozen=True)
class Definition:
    kind: str
    title: str
    version: str
    parameters: tuple[str, ...]
    build: Callable[..., dict]


def _whole_id(name: str, value) -> int | None:
    if value in (None, ""):
        return None
    if type(value) is str and value.isascii() and value.isdigit() and len(value) <= 18:
        value = int(value)
    if type(value) is not int or value <= 0:
        raise ValidationFailed.on(name, f"{name} is the id of a record (a whole number)")
    return value


def _as_of(value) -> datetime.date:
    if value in (None, ""):
        return pa_today()
    try:
        day = datetime.date.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        day = None
    if day is None:
        raise ValidationFailed.on("as_of", AS_OF_TEXT)
    # The sunset itself may be asked about: the report shows what it takes down.
    if not jinzi.EFFECTIVE <= day <= jinzi.SUNSET:
        raise ValidationFailed.on("as_of", AS_OF_RANGE)
    return day


def clean_expiry(raw: dict[str, Any]) -> dict[str, Any]:
    """{"as_of": "YYYY-MM-DD" (today if blank), "holder": id, "offering": id}."""
    holder = _whole_id("holder", raw.get("holder"))
    offering = _whole_id("offering", raw.get("offering"))
    if holder is not None and not CertificateHolder.objects.filter(pk=holder).exists():
        raise ValidationFailed.on("holder", NO_SUCH_HOLDER.format(id=holder))
    if offering is not None:
        owner = Offering.objects.filter(pk=offering).values_list("holder_id", flat=True).first()
        if owner is None:
            raise ValidationFailed.on("offering", NO_SUCH_OFFERING.format(id=offering))
        holder = holder if holder is not None else owner
    return {"as_of": _as_of(raw.get("as_of")).isoformat(), "holder": holder, "offering": offering}


def _build_expiry(parameters: dict, progress) -> dict:
    return expiry.expiry_report(
        as_of=datetime.date.fromisoformat(parameters["as_of"]),
        holder_id=parameters["holder"],
        offering_id=parameters["offering"],
        progress=progress,
    )


DEFINITIONS: dict[str, Definition] = {
    ReportKind.EXPIRY: Definition(
        kind=ReportKind.EXPIRY,
        title=expiry.TITLE,
        version=expiry.DEFINITION_VERSION,
        parameters=("as_of", "holder", "offering"),
        build=_build_expiry,
    ),
}
CLEANERS = {ReportKind.EXPIRY: clean_expiry}


def definition(kind: str) -> Definition:
    if kind not in DEFINITIONS:
        known = ", ".join(DEFINITIONS)
        raise ValidationFailed.on("kind", f"unknown report {kind!r}; the reports are {known}")
    return DEFINITIONS[kind]


def clean(kind: str, raw: Any) -> dict[str, Any]:
    known = definition(kind).parameters
    if not isinstance(raw, dict):
        raise ValidationFailed.on("parameters", f"parameters is an object with {', '.join(known)}")
    unknown = set(raw) - set(known)
    if unknown:
        raise ValidationFailed.on(
            "parameters",
            UNKNOWN_PARAMETERS.format(names=", ".join(sorted(unknown)), known=", ".join(known)),
        )
    return CLEANERS[kind](raw)
