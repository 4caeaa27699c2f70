"""Who is told when the Board's self-exclusion list names someone (§ 815a.4): each holder's
payments staff of a listed player, and compliance officers of a refused registration and of
possible matches to review. Players are named by their internal id only."""

from __future__ import annotations

import pytest

from portal.core.errors import NotPermitted
from tests.portal.notifications.helpers import dispatch_twice, settle, told
from tests.portal.players.list_helpers import full_edition, imported, line, register

pytestmark = pytest.mark.django_db


def test_815a4_each_holders_payments_staff_are_told_of_a_listed_player(
    officer, other_player, payments_a, payments_b, holder_a, holder_b
):
    settle()
    imported(officer, full_edition(line("Demo", "other_player", "1980-01-01")))
    dispatch_twice()
    notices = told("player_excluded")
    assert set(notices) == {"payments_a", "payments_b"}
    assert f"player #{other_player.pk}" in notices["payments_a"].body
    assert "Demo" not in notices["payments_a"].body  # never the listed name
    assert holder_a.name in notices["payments_a"].subject
    assert holder_b.name in notices["payments_b"].subject


def test_815a4_officers_are_told_of_a_listed_persons_refused_registration(
    officer, officer2, holder_a
):
    imported(officer, full_edition(line("Rivera", "Ana", "1988-08-08")))
    settle()
    with pytest.raises(NotPermitted):  # the neutral refusal
        register(holder_a, "ana", "Ana", "Rivera", "1988-08-08")
    dispatch_twice()
    assert set(told("registration_refused")) == {"officer", "officer2"}


def test_815a4_officers_are_told_of_possible_matches_to_review(officer, officer2, other_player):
    settle()
    imported(officer, full_edition(line("Demo", "Another", "1980-01-01")))
    dispatch_twice()
    notices = told("registration_refused")
    assert set(notices) == {"officer2"}  # the importer knows already
    assert "1 possible match" in notices["officer2"].subject
