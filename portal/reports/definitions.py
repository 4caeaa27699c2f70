"""Which reports exist, what parameters each takes, and how each is built.

A request's parameters are cleaned once (``clean``: raising ``ValidationFailed`` with the
field), by the form that asks for a run (``portal.reports.forms.ReportForm``, the page's and
the API's) or by the run service for the schedule: the ``Cleaned`` parameters are what a run
stores, as JSON, and are taken as they are. The worker reads a run's stored parameters once
into their values (``Definition.read``: dates as dates) and builds the report's document
(``portal.reports.document``) from those.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import jinzi
from portal.accounts.models import CertificateHolder
from portal.compliance.models import Offering
from portal.core.errors import ValidationFailed
from portal.core.padates import pa_today
from portal.reports import account_summary, audit_report, expiry
from portal.reports.models import ReportKind

# How the messages name each parameter: in words, as the page's fields read.
LABELS = {
    "as_of": "The date",
    "start": "The first gaming day",
    "end": "The last gaming day",
    "day": "The gaming day",
}
AS_OF_TEXT = "Enter the date as a Pennsylvania date, YYYY-MM-DD (reading:pennsylvania-dates)"
AS_OF_RANGE = (
    "The date must fall between 2025-06-14 and 2028-06-14 (§ 617b.8's life, 55 Pa.B. 4012)"
)
DAY_TEXT = "Enter {label} as a Pennsylvania gaming day, YYYY-MM-DD (reading:gaming-day)"
DAY_RANGE = (
    "{label} must fall between 2025-06-14 and 2028-06-13, the gaming days of § 617b.8's life "
    "(55 Pa.B. 4012)"
)
DAY_FUTURE = "{label} ({day}) is after today ({today}): a report covers days that have begun"
DAYS_ORDER = "The first gaming day must not be after the last"
THRESHOLD_TEXT = "The big-win threshold is a whole number of cents, at least 1"
NO_SUCH_HOLDER = "there is no certificate holder {id}"
NO_SUCH_OFFERING = "there is no offering {id}"
NOT_THE_HOLDERS = "offering {id} belongs to another certificate holder than the one chosen"
UNKNOWN_PARAMETERS = "unknown parameter(s) {names}; this report takes {known}"


class Cleaned(dict):
    """A report's parameters as ``clean`` read them: the JSON a run stores. ``kind``: the
    report they were cleaned for."""

    kind: str = ""


@dataclass(frozen=True)
class ExpiryParameters:
    """An expiry run's stored parameters, read (``Definition.read``)."""

    as_of: datetime.date
    holder: int | None
    offering: int | None

    @classmethod
    def read(cls, stored: dict) -> ExpiryParameters:
        return cls(
            datetime.date.fromisoformat(stored["as_of"]), stored["holder"], stored["offering"]
        )


@dataclass(frozen=True)
class AuditParameters:
    """An audit run's stored parameters, read (``Definition.read``): the gaming days as
    dates, read once for the whole run (its split, its parts, its document)."""

    start: datetime.date
    end: datetime.date
    holder: int | None
    offering: int | None
    win_threshold: int

    @classmethod
    def read(cls, stored: dict) -> AuditParameters:
        return cls(
            start=datetime.date.fromisoformat(stored["start"]),
            end=datetime.date.fromisoformat(stored["end"]),
            holder=stored["holder"],
            offering=stored["offering"],
            win_threshold=stored["win_threshold"],
        )

    def scope_arguments(self) -> dict[str, Any]:
        """The report's scope as ``audit_report`` and ``scope_of`` take it."""
        return {
            "start": self.start,
            "end": self.end,
            "holder_id": self.holder,
            "offering_id": self.offering,
        }


@dataclass(frozen=True)
class AccountSummaryParameters:
    """A Player Account Summary run's stored parameters, read (``Definition.read``)."""

    day: datetime.date
    holder: int | None

    @classmethod
    def read(cls, stored: dict) -> AccountSummaryParameters:
        return cls(datetime.date.fromisoformat(stored["day"]), stored["holder"])


@dataclass(frozen=True)
class Definition:
    kind: str
    title: str
    version: str
    parameters: tuple[str, ...]
    # The run's stored parameters read into their values, once; the document built from
    # them: ``build(parameters, progress, cutoff, last_round)``, as of the run's instant
    # (and, for the audit report, up to its last round).
    read: Callable[[dict], Any]
    build: Callable[..., dict]
    # A worker's (soft, hard) limits in seconds for one run, files included.
    time_limits: tuple[int, int] = (15 * 60, 16 * 60)
    # The files a run is written as: format name -> (writer, content type, extension), each
    # writer taking the built document and a binary file. None: a report document's formats
    # (``render.FORMATS``, as ``render.formats_of`` picks them).
    formats: Mapping[str, tuple[Callable[..., None], str, str]] | None = None
    # Who may ask for this run at all, beyond running reports about its holder:
    # ``admit(actor, cleaned)`` raises a domain error (``NotFound`` for a record the actor may
    # not see, ``Conflict`` for one in a state the report refuses). None: no more to ask.
    admit: Callable[[Any, dict], None] | None = None
    # Asked for from the Reports page's form (else from its own page, and the API).
    on_reports_page: bool = True
    # Called once the run's files are written: ``finished(run, document)`` (to record what
    # was made in the audit trail). None: nothing more.
    finished: Callable[[Any, dict], None] | None = None


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
        if holder not in (None, owner):
            raise ValidationFailed.on("offering", NOT_THE_HOLDERS.format(id=offering))
        holder = owner
    return {"as_of": _as_of(raw.get("as_of")).isoformat(), "holder": holder, "offering": offering}


def _gaming_day(name: str, value, default: datetime.date) -> datetime.date:
    if value in (None, ""):
        return default
    try:
        day = datetime.date.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        day = None
    if day is None:
        raise ValidationFailed.on(name, DAY_TEXT.format(label=LABELS[name].lower()))
    if not jinzi.EFFECTIVE <= day < jinzi.SUNSET:
        raise ValidationFailed.on(name, DAY_RANGE.format(label=LABELS[name]))
    if day > pa_today():
        raise ValidationFailed.on(
            name, DAY_FUTURE.format(label=LABELS[name], day=day.isoformat(), today=pa_today())
        )
    return day


class _Errors:
    """Every parameter's error at once, not the first alone: each check is attempted, what
    it refuses kept by field; ``raise_any`` refuses them together."""

    def __init__(self) -> None:
        self.by_field: dict[str, list[str]] = {}

    def attempt(self, check: Callable[..., Any], *args) -> Any:
        try:
            return check(*args)
        except ValidationFailed as error:
            for field, messages in (error.field_errors or {"parameters": [error.message]}).items():
                self.by_field.setdefault(field, []).extend(messages)
            return None

    def add(self, field: str, message: str) -> None:
        self.by_field.setdefault(field, []).append(message)

    def raise_any(self) -> None:
        if self.by_field:
            every = [message for messages in self.by_field.values() for message in messages]
            raise ValidationFailed(" ".join(every), field_errors=self.by_field)


def _threshold(threshold) -> int:
    if threshold in (None, ""):
        return audit_report.DEFAULT_WIN_THRESHOLD
    if type(threshold) is str and threshold.isascii() and threshold.isdigit():
        threshold = int(threshold) if len(threshold) <= 15 else 0
    if type(threshold) is not int or not 1 <= threshold < 10**15:
        raise ValidationFailed.on("win_threshold", THRESHOLD_TEXT)
    return threshold


def clean_audit(raw: dict[str, Any]) -> dict[str, Any]:
    """{"start", "end": gaming days (yesterday if blank), "holder", "offering",
    "win_threshold": cents}; every refusal at once."""
    errors = _Errors()
    scope = errors.attempt(
        clean_expiry, {"holder": raw.get("holder"), "offering": raw.get("offering")}
    )
    yesterday = max(pa_today() - datetime.timedelta(days=1), jinzi.EFFECTIVE)
    end = errors.attempt(_gaming_day, "end", raw.get("end"), yesterday)
    start = errors.attempt(_gaming_day, "start", raw.get("start"), end or yesterday)
    if start is not None and end is not None and start > end:
        errors.add("start", DAYS_ORDER)
    threshold = errors.attempt(_threshold, raw.get("win_threshold"))
    errors.raise_any()
    return {
        "start": start.isoformat(),
        "end": end.isoformat(),
        "holder": scope["holder"],
        "offering": scope["offering"],
        "win_threshold": threshold,
    }


def clean_account_summary(raw: dict[str, Any]) -> dict[str, Any]:
    """{"day": a gaming day (yesterday if blank), "holder": id (every holder if blank)}."""
    holder = clean_expiry({"holder": raw.get("holder")})["holder"]
    yesterday = pa_today() - datetime.timedelta(days=1)
    day = _gaming_day("day", raw.get("day"), max(yesterday, jinzi.EFFECTIVE))
    return {"day": day.isoformat(), "holder": holder}


def _build_account_summary(
    parameters: AccountSummaryParameters, progress, cutoff, last_round
) -> dict:
    return account_summary.account_summary(
        day=parameters.day, holder_id=parameters.holder, now=cutoff, progress=progress
    )


def _build_audit(parameters: AuditParameters, progress, cutoff, last_round) -> dict:
    return audit_report.audit_report(
        **parameters.scope_arguments(),
        win_threshold=parameters.win_threshold,
        progress=progress,
        now=cutoff,
        last_round=last_round,
    )


def _build_expiry(parameters: ExpiryParameters, progress, cutoff, last_round) -> dict:
    return expiry.expiry_report(
        as_of=parameters.as_of,
        holder_id=parameters.holder,
        offering_id=parameters.offering,
        now=cutoff,
        progress=progress,
    )


DEFINITIONS: dict[str, Definition] = {
    ReportKind.EXPIRY: Definition(
        kind=ReportKind.EXPIRY,
        title=expiry.TITLE,
        version=expiry.DEFINITION_VERSION,
        parameters=("as_of", "holder", "offering"),
        read=ExpiryParameters.read,
        build=_build_expiry,
    ),
    ReportKind.AUDIT: Definition(
        kind=ReportKind.AUDIT,
        title=audit_report.TITLE,
        version=audit_report.DEFINITION_VERSION,
        parameters=("start", "end", "holder", "offering", "win_threshold"),
        read=AuditParameters.read,
        build=_build_audit,
        # A month of a busy casino is millions of bets, streamed three times (CSV, XLSX up to
        # a sheet's rows, Parquet).
        time_limits=(4 * 3600, 4 * 3600 + 300),
    ),
    ReportKind.ACCOUNT_SUMMARY: Definition(
        kind=ReportKind.ACCOUNT_SUMMARY,
        title=account_summary.TITLE,
        version=account_summary.DEFINITION_VERSION,
        parameters=("day", "holder"),
        read=AccountSummaryParameters.read,
        build=_build_account_summary,
    ),
}
CLEANERS = {
    ReportKind.EXPIRY: clean_expiry,
    ReportKind.AUDIT: clean_audit,
    ReportKind.ACCOUNT_SUMMARY: clean_account_summary,
}


def register(report: Definition, cleaner: Callable[[dict[str, Any]], dict[str, Any]]) -> None:
    """A report another app defines (registered from its ``AppConfig.ready``, so this module
    lists no higher app): its definition and the cleaner of its parameters."""
    DEFINITIONS[report.kind] = report
    CLEANERS[report.kind] = cleaner


def page_kinds() -> list[tuple[str, str]]:
    """The reports the Reports page's form offers, as (kind, title) choices."""
    return [(kind, label) for kind, label in ReportKind.choices if _on_page(kind)]


def _on_page(kind: str) -> bool:
    return kind in DEFINITIONS and DEFINITIONS[kind].on_reports_page


def definition(kind: str) -> Definition:
    if kind not in DEFINITIONS:
        known = ", ".join(DEFINITIONS)
        raise ValidationFailed.on("kind", f"unknown report {kind!r}; the reports are {known}")
    return DEFINITIONS[kind]


def clean(kind: str, raw: Any) -> Cleaned:
    """The report's parameters read from a request, as a run stores them. Parameters
    cleaned already for this report (the form's) are taken as they are: a request is
    cleaned once, wherever it comes from."""
    if isinstance(raw, Cleaned) and raw.kind == kind:
        return raw
    known = definition(kind).parameters
    if not isinstance(raw, dict):
        raise ValidationFailed.on("parameters", f"parameters is an object with {', '.join(known)}")
    unknown = set(raw) - set(known)
    if unknown:
        raise ValidationFailed.on(
            "parameters",
            UNKNOWN_PARAMETERS.format(names=", ".join(sorted(unknown)), known=", ".join(known)),
        )
    cleaned = Cleaned(CLEANERS[kind](raw))
    cleaned.kind = kind
    return cleaned
