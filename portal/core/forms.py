"""The form every page form builds on: it only reads what was typed; a service judges it,
and its refusal is shown on the field it names, or on the form as a whole. Its errors name
a cited reading by its title (``ReadingErrorList``), and a required field says so in plain
words (``plain_required``)."""

from __future__ import annotations

from typing import ClassVar

from django import forms

from portal.core.errors import DomainError, ValidationFailed
from portal.core.readings import ReadingErrorList
from portal.core.validation import plain_required


class ServiceForm(forms.Form):
    """A form whose input a service judges. ``field_aliases``: a service's name for a field
    that the form calls otherwise."""

    field_aliases: ClassVar[dict[str, str]] = {}

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("error_class", ReadingErrorList)
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
