"""The filing package as a report run of its own kind (reading:filing-package): asked for
from the submission's page or the reports API, built by a worker, its files kept with the
run (the zip, the PDF, and a JSON document listing the files and the decisions), each
build recorded in the audit trail.

Managers build their own holder's packages; compliance officers and auditors any holder's.
A submission the asker may not see is not found (404); a withdrawn or rejected one is not
filed (409)."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any, BinaryIO

from django.db import transaction

from portal.access.policy import visible
from portal.audit.services import audit_record
from portal.compliance.models import RecordStatus, RulesSubmission
from portal.core.errors import Conflict, NotFound, ValidationFailed
from portal.filings.bundle import DEFINITION_VERSION, Package, package_of
from portal.filings.contents import filing_of
from portal.reports import definitions
from portal.reports.document import column, made, section
from portal.reports.models import ReportKind
from portal.reports.render import write_json

TITLE = "Filing package"
SUBMISSION_TEXT = "Name the rules submission by its number, a whole number"
NO_SUCH_SUBMISSION = "There is no rules submission {id} among those you may see"
NOT_FILED = (
    "§ 601a.2: rules submission {id} is {status}; a {status} submission is not filed, so it "
    "has no filing package"
)
REFUSED_STATUSES = (RecordStatus.WITHDRAWN, RecordStatus.REJECTED)
BUILD_ACTION = "filing_package.build"


@dataclass(frozen=True)
class PackageParameters:
    submission: int
    holder: int

    @classmethod
    def read(cls, stored: dict) -> PackageParameters:
        return cls(stored["submission"], stored["holder"])


def clean_filing_package(raw: dict[str, Any]) -> dict[str, Any]:
    """{"submission": the rules submission's number}; its holder is the run's."""
    value = raw.get("submission")
    if type(value) is str and value.isascii() and value.isdigit() and len(value) <= 18:
        value = int(value)
    if type(value) is not int or value <= 0:
        raise ValidationFailed.on("submission", SUBMISSION_TEXT)
    holder = RulesSubmission.objects.filter(pk=value).values_list("holder_id", flat=True).first()
    if holder is None:
        raise NotFound(NO_SUCH_SUBMISSION.format(id=value))
    return {"submission": value, "holder": holder}


def admit(actor, cleaned: dict) -> None:
    """Another holder's submission is not found for a manager; a withdrawn or rejected one
    is refused for everyone."""
    found = visible(actor, RulesSubmission.objects.filter(pk=cleaned["submission"])).first()
    if found is None:
        raise NotFound(NO_SUCH_SUBMISSION.format(id=cleaned["submission"]))
    if found.status in REFUSED_STATUSES:
        status = RecordStatus(found.status).label.lower()
        raise Conflict(NOT_FILED.format(id=found.pk, status=status))


FILE_COLUMNS = [
    column("name", "File"),
    column("description", "What it is"),
    column("bytes", "Size (bytes)", "integer"),
    column("sha256", "SHA-256"),
]
DECISION_COLUMNS = [
    column("when", "When (Pennsylvania time)"),
    column("record", "Record"),
    column("what", "What"),
    column("who", "Who"),
    column("reason", "Reason"),
]


def build(parameters: PackageParameters, progress, cutoff: datetime.datetime, last_round) -> dict:
    submission = RulesSubmission.objects.select_related(
        "holder", "decided_by", "submitted_by", "created_by"
    ).get(pk=parameters.submission)
    progress(0, 2)
    filing = filing_of(submission)
    package = package_of(filing)
    progress(1, 2)
    files = [
        {"name": f.name, "description": f.description, "bytes": len(f.data), "sha256": f.sha256}
        for f in package.files
    ]
    decisions = [
        {"when": d.when, "record": d.record, "what": d.what, "who": d.who, "reason": d.reason}
        for d in filing.decisions
    ]
    return {
        "report": ReportKind.FILING_PACKAGE.value,
        "title": TITLE,
        "definition_version": DEFINITION_VERSION,
        **made(cutoff),
        "holder": filing.holder,
        "period": {},
        "filters": {
            "rules_submission": f"{submission.title} v{submission.version}",
            "zip_sha256": package.zip_sha256,
        },
        "sections": [
            section(
                "files",
                "Files in the package",
                FILE_COLUMNS,
                files,
                notes=[
                    f"The zip file of this run holds them all, in the folder {package.folder}; "
                    "the PDF is also a file of this run."
                ],
            ),
            section("decisions", "History of decisions", DECISION_COLUMNS, decisions),
        ],
        "package": package,
    }


def _package(document: dict) -> Package:
    return document["package"]


def write_zip(document: dict, out: BinaryIO) -> None:
    out.write(_package(document).zip_bytes)


def write_pdf(document: dict, out: BinaryIO) -> None:
    out.write(_package(document).pdf.data)


def write_listing(document: dict, out: BinaryIO) -> None:
    write_json({key: value for key, value in document.items() if key != "package"}, out)


@transaction.atomic
def finished(run, document: dict) -> None:
    """Each build in the audit trail, with what it made."""
    package = _package(document)
    audit_record(
        actor=run.requested_by,
        action=BUILD_ACTION,
        object_type="report_run",
        object_id=run.pk,
        after={
            "kind": run.kind,
            "submission": run.parameters["submission"],
            "zip_sha256": package.zip_sha256,
            "pdf_sha256": package.pdf.sha256,
            "files": len(package.files),
        },
    )


FORMATS = {
    "json": (write_listing, "application/json", "json"),
    "pdf": (write_pdf, "application/pdf", "pdf"),
    "zip": (write_zip, "application/zip", "zip"),
}


def register() -> None:
    definitions.register(
        definitions.Definition(
            kind=ReportKind.FILING_PACKAGE,
            title=TITLE,
            version=DEFINITION_VERSION,
            parameters=("submission",),
            read=PackageParameters.read,
            build=build,
            formats=FORMATS,
            admit=admit,
            on_reports_page=False,
            finished=finished,
        ),
        clean_filing_package,
    )
