"""Every change to a compliance record goes through a function of these modules, named
``<thing>_<verb>``: ``layouts``, ``paytables``, ``rules``, ``terms``, ``offerings``, ``expiry``.

The workflow's steps are declared once (``portal.compliance.workflow``); ``step_service``
is how the pages, the API and the admin find the service of a step for a record.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from portal.compliance.models import VersionedRecord
from portal.compliance.services import layouts, paytables, rules, terms

# Each kind's services, and the keyword they take the record by.
_KINDS = {
    "layout": (layouts, "layout"),
    "paytable": (paytables, "paytable"),
    "rules_submission": (rules, "submission"),
    "terms": (terms, "terms"),
}


def step_service(record: VersionedRecord, verb: str) -> Callable[..., VersionedRecord]:
    """The service ``<kind>_<verb>`` bound to ``record``: call it with the acting user and
    the step's own input (``actor=…, reason=…``)."""
    module, keyword = _KINDS[record.kind]
    service = getattr(module, f"{record.kind}_{verb}")
    return functools.partial(service, **{keyword: record})
