"""What the players' tests share: a registration's details, and files of the Board's list in
the layout docs/exclusion-list.md defines."""

from __future__ import annotations

from portal.players.models import ListKind
from portal.players.services.exclusion_list import list_import
from portal.players.services.registration import player_register
from tests.portal.factories import PASSWORD

HEADER = "surname,given_names,aliases,date_of_birth,ssn_last4,date_listed,period"


def line(surname, given, born, *, aliases="", ssn="", listed="2026-11-01", period="life"):
    return f"{surname},{given},{aliases},{born},{ssn},{listed},{period}"


def full_edition(*lines: str) -> bytes:
    return ("\n".join([HEADER, *lines]) + "\n").encode()


def changes(*changed: tuple[str, str]) -> bytes:
    rows = [f"{change},{row}" for change, row in changed]
    return ("\n".join(["change," + HEADER, *rows]) + "\n").encode()


def imported(officer, data: bytes, kind=ListKind.FULL_EDITION, name="board-list.csv"):
    return list_import(actor=officer, data=data, file_name=name, kind=kind)


def register(holder, username: str, given: str, surname: str, born: str, **overrides):
    """``player_register`` with a person's name and date of birth, the rest made up."""
    values = {
        "username": username,
        "password": PASSWORD,
        "email": f"{username}@example.com",
        "holder_id": holder.pk,
        "given_names": given,
        "surname": surname,
        "date_of_birth": born,
        "address": "1 Main St, Harrisburg, PA 17101",
        "telephone": "215 555 0111",
    }
    values.update(overrides)
    return player_register(**values)
