"""The filing package as files (reading:filing-package): its PDF, each source file, and a
manifest listing every file with its SHA-256 (as JSON, and as a SHA256SUMS list that
``sha256sum -c`` checks), in one zip.

The same records give the same bytes: every file is made from the records alone (JSON with
sorted keys, SVG drawings without dates or random ids, the PDF in ReportLab's invariant
mode), the files are stored in a fixed order, and every zip entry carries the same time
(the rule's effective date, 2025-06-14 00:00) and the same permissions (rw-r--r--).
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import zipfile
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

from django.utils.text import slugify

from portal.compliance.presenters.par import par_csv_lines
from portal.compliance.schematic import drawing_svg, layout_drawing, wheel_drawing
from portal.core.software import manifest as software_files
from portal.filings.contents import Filing, Listing
from portal.filings.package_pdf import write_package_pdf

DEFINITION_VERSION = "1"
ZIP_TIME = (2025, 6, 14, 0, 0, 0)  # § 617b.8's effective date: every entry's time, fixed
FILE_MODE = 0o100644  # a regular file, rw-r--r--
PDF_NAME = "filing-package.pdf"
MANIFEST_NAME = "manifest.json"
SUMS_NAME = "SHA256SUMS"


@dataclass(frozen=True)
class PackageFile:
    name: str  # its path inside the package
    description: str
    data: bytes
    content_type: str

    @cached_property
    def sha256(self) -> str:
        return hashlib.sha256(self.data).hexdigest()


@dataclass(frozen=True)
class Package:
    folder: str  # the zip's one top folder
    pdf: PackageFile
    manifest: PackageFile
    files: tuple[PackageFile, ...]  # every file, the manifest and SHA256SUMS last
    zip_bytes: bytes

    @cached_property
    def zip_sha256(self) -> str:
        return hashlib.sha256(self.zip_bytes).hexdigest()


def _json(value) -> bytes:
    return (json.dumps(value, sort_keys=True, ensure_ascii=False, indent=1) + "\n").encode()


def _csv(header: list[str], rows: list[list]) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue().encode()


def _day(day) -> str | None:
    return day.isoformat() if day else None


def _instant(instant) -> str | None:
    return instant.isoformat() if instant else None


def _name(user) -> str | None:
    return user.get_username() if user is not None else None


def _record(record) -> dict:
    return {
        "id": record.pk,
        "version": record.version,
        "status": record.status,
        "created_at": _instant(record.created_at),
        "submitted_at": _instant(record.submitted_at),
        "decided_at": _instant(record.decided_at),
        "decided_by": _name(record.decided_by),
        "decision_reason": record.decision_reason,
        "effective_date": _day(record.effective_date),
        "expiry_date": _day(record.expiry_date),
    }


class MissingDocument(RuntimeError):
    """A document a record names is not in the document store: no package is built
    without it (the run fails, saying which)."""


MISSING = (
    "{what} is recorded, but its file is not in the document store; the package is not "
    "built without it"
)


def _stored(field, what: str) -> bytes:
    try:
        with field.open("rb") as stream:
            return stream.read()
    except FileNotFoundError as error:
        raise MissingDocument(MISSING.format(what=what)) from error


def _folder_of(record, name: str) -> str:
    return f"{slugify(name) or 'untitled'}-v{record.version}"


def _submission_file(filing: Filing) -> PackageFile:
    submission = filing.submission
    listings = [
        {
            "game": item.listing.game,
            "paytable": {
                "id": item.paytable.pk,
                "name": item.paytable.name,
                "version": item.paytable.version,
            },
            "layout": {
                "id": item.layout.pk,
                "title": item.layout.title,
                "version": item.layout.version,
            },
            "chip_unit_cents": item.listing.chip_unit,
            "min_wager_cents": item.listing.min_wager,
            "max_wager_cents": item.listing.max_wager,
            "max_round_stake_cents": item.listing.max_round_stake,
        }
        for item in filing.listings
    ]
    data = {
        "holder": filing.holder,
        "title": submission.title,
        "notes": submission.notes,
        **_record(submission),
        "games": listings,
    }
    return PackageFile(
        "submission.json",
        "The rules submission and the games it lists, with their limits in cents (§ 601a.2)",
        _json(data),
        "application/json",
    )


def _layout_files(item: Listing) -> list[PackageFile]:
    layout = item.layout
    folder = f"layouts/{_folder_of(layout, layout.title)}"
    named = f"layout '{layout.title}' v{layout.version}"
    data = {
        "title": layout.title,
        "wheel_order": layout.wheel_order,
        "first_colour": layout.first_colour,
        "signage_text": layout.signage_text,
        "reference_number": layout.reference_number,
        "conditions": layout.conditions,
        "review_due": _day(layout.review_due),
        "artwork_sha256": layout.artwork_sha256,
        **_record(layout),
    }
    files = [
        PackageFile(
            f"{folder}/layout.json",
            f"The {named}: its wheel, signage and approval (§ 601a.10(a))",
            _json(data),
            "application/json",
        )
    ]
    if item.wheel is not None:
        title = f"Layout '{layout.title}' v{layout.version}"
        files.append(
            PackageFile(
                f"{folder}/schematic.svg",
                f"The schematic of {named}, drawn from its wheel and grid (§ 601a.10(a))",
                drawing_svg(layout_drawing(item.wheel, title=title)),
                "image/svg+xml",
            )
        )
        files.append(
            PackageFile(
                f"{folder}/wheel.svg",
                f"The wheel of {named} (§ 617b.8(c))",
                drawing_svg(wheel_drawing(item.wheel, title=title)),
                "image/svg+xml",
            )
        )
    if layout.artwork:
        extension = layout.artwork.name.rsplit(".", 1)[-1].lower()
        artwork = _stored(layout.artwork, f"The artwork of {named}")
        files.append(
            PackageFile(
                f"{folder}/artwork.{extension}",
                f"The artwork filed with {named}, as uploaded",
                artwork,
                layout.artwork_content_type or "application/octet-stream",
            )
        )
    return files


def _forecast_chart(sheet: dict) -> dict:
    holds = sheet["holds"]
    return {
        "key": "hold-forecast",
        "title": f"Hold to expect: {sheet['paytable']['name']} v{sheet['paytable']['version']}",
        "type": "band",
        "forecast": True,
        "percent": True,
        "x_title": "Rounds of the betting mix",
        "y_title": "Hold",
        "labels": [hold["shown"]["rounds"] for hold in holds],
        "values": [None] * len(holds),
        "expected": [float(Fraction(hold["expected_hold"])) for hold in holds],
        "low": [float(hold["band_low"]) for hold in holds],
        "high": [float(hold["band_high"]) for hold in holds],
    }


def _paytable_files(item: Listing) -> list[PackageFile]:
    # Here, not at the top: matplotlib takes half a second to import, which only a process
    # that draws a chart should pay.
    from portal.reports.render.chart_drawing import chart_svg

    paytable = item.paytable
    folder = f"paytables/{_folder_of(paytable, paytable.name)}"
    named = f"paytable '{paytable.name}' v{paytable.version}"
    data = {
        "name": paytable.name,
        "odds": paytable.odds,
        "edge_override_reason": paytable.edge_override_reason,
        **_record(paytable),
    }
    files = [
        PackageFile(
            f"{folder}/paytable.json",
            f"The {named}: its odds to 1 per wager (§ 617b.8(f))",
            _json(data),
            "application/json",
        )
    ]
    if item.par is not None:
        files.append(
            PackageFile(
                f"{folder}/par-sheet.json",
                f"The PAR sheet of {named}, its figures exact",
                _json(item.par),
                "application/json",
            )
        )
        files.append(
            PackageFile(
                f"{folder}/par-sheet.csv",
                f"The PAR sheet of {named}, as a table",
                "".join(par_csv_lines(item.par)).encode(),
                "text/csv",
            )
        )
        files.append(
            PackageFile(
                f"{folder}/hold-forecast.svg",
                f"The hold to expect of {named}, with its 95 % band",
                chart_svg(_forecast_chart(item.par)),
                "image/svg+xml",
            )
        )
    return files


def _software_files(filing: Filing) -> list[PackageFile]:
    identity, approval = filing.identity, filing.approval
    files = [
        PackageFile(
            "software/identity.json",
            "The game software's identity: its version, its code digest and its files",
            _json(
                {
                    "version": identity.version,
                    "digest": identity.digest,
                    "files": list(software_files()),
                }
            ),
            "application/json",
        )
    ]
    if approval is None:
        return files
    data = {
        "software_version": approval.software_version,
        "digest": approval.digest,
        "lab_reference": approval.lab_reference,
        "approved_on": _day(approval.approved_on),
        "status": approval.status,
        "recorded_at": _instant(approval.created_at),
        "recorded_by": _name(approval.created_by),
        "decided_at": _instant(approval.decided_at),
        "decided_by": _name(approval.decided_by),
        "document_sha256": approval.document_sha256,
    }
    files.append(
        PackageFile(
            "software/approval.json",
            "The approval of the game software (§ 461a.4)",
            _json(data),
            "application/json",
        )
    )
    letter = _stored(
        approval.document, f"The approval letter of the game software {approval.software_version}"
    )
    files.append(
        PackageFile(
            "software/approval-letter.pdf",
            "The approval letter, as recorded",
            letter,
            "application/pdf",
        )
    )
    return files


def _history_file(filing: Filing) -> PackageFile:
    rows = [[d.when, d.record, d.what, d.who, d.reason] for d in filing.decisions]
    return PackageFile(
        "history.csv",
        "The history of decisions on the submission, its layouts and paytables, and the "
        "software's approval",
        _csv(["When (Pennsylvania time)", "Record", "What", "Who", "Reason"], rows),
        "text/csv",
    )


def source_files(filing: Filing) -> list[PackageFile]:
    """Every file of the package but its PDF and its manifest, in a fixed order."""
    files = [_submission_file(filing)]
    for item in filing.layouts:
        files += _layout_files(item)
    for item in filing.paytables:
        files += _paytable_files(item)
    files += _software_files(filing)
    files.append(_history_file(filing))
    return files


def _manifest(filing: Filing, files: list[PackageFile]) -> PackageFile:
    submission = filing.submission
    data = {
        "title": "Filing package: Jinzi Roulette",
        "definition_version": DEFINITION_VERSION,
        "holder": filing.holder,
        "rules_submission": {
            "id": submission.pk,
            "title": submission.title,
            "version": submission.version,
        },
        "software": {"version": filing.identity.version, "digest": filing.identity.digest},
        "files": [
            {"name": f.name, "description": f.description, "bytes": len(f.data), "sha256": f.sha256}
            for f in files
        ],
    }
    return PackageFile(
        MANIFEST_NAME,
        "This list of every file with its size and SHA-256",
        _json(data),
        "application/json",
    )


def _sums(files: list[PackageFile]) -> PackageFile:
    text = "".join(f"{f.sha256}  {f.name}\n" for f in files)
    return PackageFile(
        SUMS_NAME, "Every file's SHA-256, as sha256sum -c checks them", text.encode(), "text/plain"
    )


def _zip(folder: str, files: list[PackageFile]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for file in files:
            entry = zipfile.ZipInfo(f"{folder}/{file.name}", date_time=ZIP_TIME)
            entry.external_attr = FILE_MODE << 16
            entry.create_system = 3  # Unix, so the permissions read the same everywhere
            archive.writestr(entry, file.data, compress_type=zipfile.ZIP_DEFLATED, compresslevel=9)
    return out.getvalue()


def package_of(filing: Filing) -> Package:
    """The package of ``filing``: its PDF, its sources, its manifest, zipped."""
    sources = source_files(filing)
    out = io.BytesIO()
    write_package_pdf(filing, [(f.name, f.description, f.sha256) for f in sources], out)
    pdf = PackageFile(
        PDF_NAME, "The filing package as one document", out.getvalue(), "application/pdf"
    )
    files = [pdf, *sources]
    manifest = _manifest(filing, files)
    every = [*files, manifest, _sums([*files, manifest])]
    submission = filing.submission
    title = slugify(submission.title) or "submission"
    folder = f"filing-package-{slugify(filing.holder)}-{title}-v{submission.version}"
    return Package(folder, pdf, manifest, tuple(every), _zip(folder, every))
