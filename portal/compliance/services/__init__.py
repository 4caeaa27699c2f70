"""Every change to a compliance record goes through one of these functions."""

from portal.compliance.services.expiry import records_expire_due
from portal.compliance.services.layouts import (
    layout_amend,
    layout_approve,
    layout_create,
    layout_reject,
    layout_request_changes,
    layout_submit,
    layout_update,
    layout_withdraw,
)
from portal.compliance.services.offerings import offering_create, offering_retire, offering_update
from portal.compliance.services.paytables import (
    paytable_amend,
    paytable_approve,
    paytable_create,
    paytable_reject,
    paytable_request_changes,
    paytable_submit,
    paytable_update,
    paytable_withdraw,
)
from portal.compliance.services.rules import (
    GameListing,
    rules_submission_amend,
    rules_submission_approve,
    rules_submission_create,
    rules_submission_reject,
    rules_submission_request_changes,
    rules_submission_submit,
    rules_submission_update,
    rules_submission_withdraw,
)

__all__ = [
    "GameListing",
    "layout_amend",
    "layout_approve",
    "layout_create",
    "layout_reject",
    "layout_request_changes",
    "layout_submit",
    "layout_update",
    "layout_withdraw",
    "offering_create",
    "offering_retire",
    "offering_update",
    "paytable_amend",
    "paytable_approve",
    "paytable_create",
    "paytable_reject",
    "paytable_request_changes",
    "paytable_submit",
    "paytable_update",
    "paytable_withdraw",
    "records_expire_due",
    "rules_submission_amend",
    "rules_submission_approve",
    "rules_submission_create",
    "rules_submission_reject",
    "rules_submission_request_changes",
    "rules_submission_submit",
    "rules_submission_update",
    "rules_submission_withdraw",
]
