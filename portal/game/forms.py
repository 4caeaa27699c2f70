"""The form every game form builds on (the player's account, the payments pages, the voids
and adjustments of rounds): it only reads what was typed; a service judges it, and its
refusal is shown on the field it names (``add_service_error``)."""

from __future__ import annotations

from django import forms

from portal.core.errors import DomainError, ValidationFailed
from portal.core.validation import plain_required


class ServiceForm(forms.Form):
    """A form whose input a service judges: its refusal lands on the field it names, or
    on the form as a whole."""

    field_aliases: dict[str, str] = {}

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        plain_required(self.fields)

    def add_service_error(self, error: DomainError) -> None:
        fields = error.field_errors if isinstance(error, ValidationFailed) else {}
        if not fields:
            self.add_error(None, error.message)
            return
        for key, messages in fields.items():
            field = self.field_aliases.get(key, key)
            self.add_error(field if field in self.fields else None, list(messages))
