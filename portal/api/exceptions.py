"""What an app raises for the API to answer in a way only the app knows how to ask for.

Kept apart from ``errors`` (the exception handler), which imports DRF's views: a sign-in
class, imported by DRF's settings while its views load, may import this module.
"""

from __future__ import annotations

from rest_framework import exceptions


class CredentialsRefused(exceptions.AuthenticationFailed):
    """Credentials a request sent that its sign-in method refused: a 401 with that
    method's ``challenge`` (``WWW-Authenticate``), whichever method is tried first.

    The sign-in methods live with the accounts; they raise this, so the API answers
    them without knowing them.
    """

    def __init__(self, detail: str, *, challenge: str) -> None:
        super().__init__(detail)
        self.challenge = challenge
