"""Reading pages in tests: inline errors, stored files, records at a given step."""

from __future__ import annotations

import re
from pathlib import Path

from django.conf import settings

from portal.compliance.services.layouts import layout_approve, layout_submit
from portal.compliance.services.paytables import paytable_submit
from tests.portal.factories import EFFECTIVE, EXPIRY, make_layout, make_paytable


def text(response) -> str:
    return response.content.decode()


# An absolute or protocol-relative address naming a host: https://cdn.example/…, //unpkg.com/…
_HOSTED = re.compile(r"(?:https?:)?//[a-z0-9-]+(?:\.[a-z0-9-]+)+", re.IGNORECASE)


def addresses_off_site(page: str) -> list[str]:
    """Every address in ``page`` that names a host (a CDN's, say): a page served wholly
    from this site has none. Looks for addresses, not for words such as "cdn", which the
    page's random CSRF token may spell."""
    return _HOSTED.findall(page)


def field_errors(response, field_id: str) -> str:
    """The inline error list Django renders under the field with HTML id ``field_id``."""
    match = re.search(rf'<ul class="errorlist" id="{field_id}_error">(.*?)</ul>', text(response))
    assert match, f"no inline errors for {field_id}"
    return match.group(1)


def form_errors(response) -> str:
    """The form's own (non-field) errors."""
    match = re.search(r'<ul class="errorlist nonfield">(.*?)</ul>', text(response), re.S)
    assert match, "no form errors"
    return match.group(1)


_SUMMARY = re.compile(r'<div class="error-summary"[^>]*data-error-summary>.*?</div>', re.S)


def error_summary(page: str) -> str:
    """The error summary at the top of a refused form (empty when there is none)."""
    match = _SUMMARY.search(page)
    return match.group(0) if match else ""


def shown_once(page: str, phrase: str) -> bool:
    """``phrase`` is shown once, where it belongs: a field's error on its field, and once
    more in the error summary when the page has one; the form's own error (about no one
    field) only in the summary. Never twice in either place."""
    summary = error_summary(page)
    if not summary:
        return page.count(phrase) == 1
    outside = page.replace(summary, "").count(phrase)
    own = re.search(r'<ul class="errorlist nonfield">(.*?)</ul>', summary, re.S)
    forms_own = bool(own) and phrase in own.group(1)
    return summary.count(phrase) == 1 and outside == (0 if forms_own else 1)


def stored_files() -> list[Path]:
    return [path for path in Path(settings.MEDIA_ROOT).rglob("*") if path.is_file()]


def submitted_layout(manager, holder, **overrides):
    return layout_submit(actor=manager, layout=make_layout(manager, holder, **overrides))


def submitted_paytable(manager, holder, odds=None):
    return paytable_submit(actor=manager, paytable=make_paytable(manager, holder, odds))


def approve_layout(officer, layout, **overrides):
    fields = {"reference_number": "BGO-1", "effective_date": EFFECTIVE, "expiry_date": EXPIRY}
    fields.update(overrides)
    return layout_approve(actor=officer, layout=layout, **fields)


def rules_form(paytable, layout, **overrides) -> dict:
    """A rules submission form listing ``paytable`` and ``layout``, valid unless overridden."""
    data = {
        "title": "Jinzi Roulette rules",
        "notes": "Main floor",
        "effective_date": EFFECTIVE.isoformat(),
        "expiry_date": EXPIRY.isoformat(),
        "paytable": paytable.pk,
        "layout": layout.pk,
        # Typed in dollars, as a person types them; stored in cents.
        "chip_unit": "1.00",
        "min_wager": "1.00",
        "max_wager": "500.00",
        "max_round_stake": "2000.00",
    }
    data.update(overrides)
    return data
