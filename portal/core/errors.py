"""Domain errors raised by services. Each interface maps them the same way:

- ``ValidationFailed`` → 400, with per-field messages;
- ``NotPermitted``     → 403 (wrong role, another holder's record, four-eyes);
- ``NotFound``         → 404;
- ``Conflict``         → 409 (a transition the record's status does not allow,
  or a decision that lost a race);
- ``Unavailable``      → 503 (nothing may be offered now, whatever the request: the game
  software running is not approved, § 461a.4).
"""

from __future__ import annotations

from collections.abc import Mapping


class DomainError(Exception):
    http_status = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class ValidationFailed(DomainError):
    http_status = 400

    def __init__(self, message: str, *, field_errors: Mapping[str, list[str]] | None = None):
        super().__init__(message)
        self.field_errors: dict[str, list[str]] = dict(field_errors or {})

    @classmethod
    def on(cls, field: str, message: str) -> ValidationFailed:
        return cls(message, field_errors={field: [message]})


class NotPermitted(DomainError):
    http_status = 403


class NotFound(DomainError):
    http_status = 404


class Conflict(DomainError):
    http_status = 409


class Unavailable(DomainError):
    http_status = 503
