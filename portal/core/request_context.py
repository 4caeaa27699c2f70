"""The id of the request (or task) being served, for audit events and logs."""

from __future__ import annotations

from contextvars import ContextVar

_request_id: ContextVar[str] = ContextVar("jinzi_request_id", default="")


def current_request_id() -> str:
    return _request_id.get()


def bind_request_id(value: str):
    """Set the id; returns a token for ``reset_request_id``."""
    return _request_id.set(value)


def reset_request_id(token) -> None:
    _request_id.reset(token)
