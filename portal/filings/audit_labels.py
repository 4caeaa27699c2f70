"""The audit trail's words for what the filings app writes: each filing package built."""

from __future__ import annotations

from portal.audit import labels

ORDER = 51  # beside the reports'


def register() -> None:
    labels.register_actions({"filing_package.build": "Filing package built"}, order=ORDER)
    labels.register_action_groups({"filing_package": "Filing package"})
    labels.register_fields(
        {
            "submission": "Rules submission",
            "zip_sha256": "SHA-256 of the zip",
            "pdf_sha256": "SHA-256 of the PDF",
            "files": "Files",
        }
    )
