"""The holders' copy of the Board's self-exclusion list (§ 815a.4): imports kept whole,
matches excluded at every holder at once, uncertain matches reviewed, removals confirmed by
a second officer (reading:exclusion-list-import)."""

from __future__ import annotations

import pytest
from django.contrib.sessions.models import Session

from portal.accounts.tokens import api_token_issue
from portal.audit.models import AuditEvent
from portal.core.errors import Conflict, NotPermitted, ValidationFailed
from portal.game.models import DepositMethod, PlaySession, Wallet, WithdrawalStatus
from portal.game.money.services.deposits import deposit_make
from portal.game.money.services.withdrawals import withdrawal_request
from portal.players import messages as msg
from portal.players.models import (
    ExclusionSource,
    ListEntry,
    ListImport,
    ListKind,
    ListReview,
    PlayerExclusion,
    ReviewCause,
    ReviewOutcome,
)
from portal.players.services import exclusion_list as service
from tests.portal.factories import PASSWORD, sign_in
from tests.portal.game.account_helpers import nothing_moved
from tests.portal.game.conftest import TEN_STRAIGHTS, play_round
from tests.portal.players.list_helpers import changes, full_edition, imported, line, register

pytestmark = pytest.mark.django_db

OTHER = line("Demo", "other_player", "1980-01-01")  # the made-up identity of other_player


@pytest.mark.clause("reading:exclusion-list-import", kind="proves")
def test_815a4_an_import_lists_a_player_who_is_refused_at_both_holders_and_still_withdraws(
    officer, other_player, live_offering, holder_a, holder_b
):
    record = imported(officer, full_edition(OTHER, line("Nobody", "Else", "1970-05-05")))
    assert (record.people, record.added, record.players_excluded) == (2, 2, 1)
    wallet = Wallet.objects.get(player=other_player)
    assert wallet.excluded_since is not None and wallet.excluded_until is None
    exclusion = PlayerExclusion.objects.get(player=other_player)
    assert exclusion.source == ExclusionSource.BOARD_LIST
    for holder in (holder_a, holder_b):
        with nothing_moved(), pytest.raises(Conflict):
            deposit_make(
                player=other_player, holder_id=holder.pk, amount=500, method=DepositMethod.DEMO
            )
    with nothing_moved(), pytest.raises(Conflict):
        play_round(other_player, live_offering, "listed-1", wagers=TEN_STRAIGHTS[:1])
    account = other_player.gaming_accounts.get(holder=holder_b)
    withdrawal = withdrawal_request(player=other_player, account_id=account.pk, amount=50_000)
    assert withdrawal.status == WithdrawalStatus.PENDING


@pytest.mark.clause("reading:exclusion-list-import", kind="proves")
def test_815a4_an_alias_with_the_date_of_birth_matches_too(officer, other_player):
    aliased = line("Smith", "Jane", "1980-01-01", aliases="Someone Else;other_player Demo")
    imported(officer, full_edition(aliased))
    assert Wallet.objects.get(player=other_player).excluded_since is not None


def test_815a4_the_same_name_with_another_date_of_birth_is_not_a_match(officer, other_player):
    record = imported(officer, full_edition(line("Demo", "other_player", "1980-01-02")))
    assert record.players_excluded == 0
    assert Wallet.objects.get(player=other_player).excluded_since is None


def test_815a4_the_import_ends_the_players_sessions_and_tokens_at_once(
    client, officer, other_player
):
    sign_in(client, "other_player", PASSWORD)
    session = PlaySession.objects.get(user=other_player, ended_at__isnull=True)
    assert Session.objects.filter(session_key=session.session_key).exists()
    api_token_issue(user=other_player, name="phone")
    imported(officer, full_edition(OTHER))
    session.refresh_from_db()
    assert session.ended_at is not None
    assert not Session.objects.filter(session_key=session.session_key).exists()
    assert not other_player.api_tokens.filter(revoked_at__isnull=True).exists()
    assert client.get("/play/account/").status_code == 302  # signed out: to the sign-in


def test_815a4_each_holders_payments_staff_are_told_through_the_trail(
    officer, other_player, holder_a, holder_b
):
    imported(officer, full_edition(OTHER))
    event = AuditEvent.objects.get(action="player.list_exclude")
    assert event.object_id == str(other_player.pk)
    assert event.after["holder_ids"] == sorted([holder_a.pk, holder_b.pk])
    assert "Demo" not in str(event.after)


def test_815a4_every_import_is_kept_with_who_when_and_what_it_did(officer, other_player):
    imported(officer, full_edition(OTHER))
    record = ListImport.objects.get()
    assert record.imported_by == officer
    event = AuditEvent.objects.get(action="exclusion_list.import")
    assert event.after["added"] == 1 and event.after["players_excluded"] == 1
    assert "other_player" not in str(event.after)


def test_815a4_the_same_file_twice_is_refused(officer):
    data = full_edition(line("Nobody", "Else", "1970-05-05"))
    imported(officer, data)
    with pytest.raises(ValidationFailed) as refused:
        imported(officer, data)
    assert "already imported" in refused.value.field_errors["file"][0]
    assert ListImport.objects.count() == 1


def test_815a4_a_malformed_file_is_refused_whole_and_nothing_is_stored(officer, other_player):
    data = full_edition(OTHER, line("Bad", "Date", "1980-02-30"))
    with pytest.raises(ValidationFailed) as refused:
        imported(officer, data)
    assert "line 3" in refused.value.field_errors["file"][0]
    assert not ListImport.objects.exists() and not ListEntry.objects.exists()
    assert Wallet.objects.get(player=other_player).excluded_since is None


def test_815a4_an_empty_full_edition_is_refused(officer):
    with pytest.raises(ValidationFailed):
        imported(officer, full_edition())
    assert not ListImport.objects.exists()


def test_815a4_only_compliance_officers_import(manager_a, payments_a, auditor):
    for user in (manager_a, payments_a, auditor):
        with pytest.raises(NotPermitted):
            imported(user, full_edition(line("Nobody", "Else", "1970-05-05")))
    assert not ListImport.objects.exists()


@pytest.mark.clause("reading:exclusion-list-import", kind="proves")
def test_815a4_a_removal_applies_only_once_a_second_officer_confirms_it(
    officer, officer2, other_player, holder_a
):
    imported(officer, full_edition(OTHER))
    record = imported(officer, changes(("remove", OTHER)), kind=ListKind.CHANGES)
    assert record.removals_asked == 1
    entry = ListEntry.objects.get()
    assert entry.removed_at is None
    assert Wallet.objects.get(player=other_player).excluded_since is not None
    with pytest.raises(NotPermitted):
        service.list_removal_confirm(actor=officer, entry_id=entry.pk)
    service.list_removal_confirm(actor=officer2, entry_id=entry.pk)
    assert Wallet.objects.get(player=other_player).excluded_since is None
    deposit_make(player=other_player, holder_id=holder_a.pk, amount=500, method=DepositMethod.DEMO)
    with pytest.raises(Conflict):
        service.list_removal_confirm(actor=officer2, entry_id=entry.pk)


def test_815a4_a_full_edition_that_leaves_a_person_out_asks_their_removal(officer, other_player):
    imported(officer, full_edition(OTHER, line("Nobody", "Else", "1970-05-05")))
    record = imported(officer, full_edition(line("Nobody", "Else", "1970-05-05")))
    assert (record.added, record.removals_asked) == (0, 1)
    asked = ListEntry.objects.get(removal_asked_by=record)
    assert asked.removed_at is None  # still listed until confirmed


def test_815a4_a_self_exclusion_ended_does_not_lift_the_boards_entry(officer, other_player):
    imported(officer, full_edition(OTHER))
    wallet = Wallet.objects.get(player=other_player)
    assert wallet.excluded_until is None  # the Board's entry has no end of its own


@pytest.mark.clause("reading:exclusion-list-import", kind="proves")
def test_815a4_conflicting_ssn_digits_go_to_review_rather_than_deciding_alone(officer, holder_a):
    register(holder_a, "ssn", "Pat", "Lee", "1975-03-03", ssn_last4="1111")
    record = imported(officer, full_edition(line("Lee", "Pat", "1975-03-03", ssn="2222")))
    assert record.players_excluded == 0
    review = ListReview.objects.get()
    assert review.cause == ReviewCause.SSN_CONFLICT
    assert Wallet.objects.get(player=review.player).excluded_since is None
    service.list_review_decide(
        actor=officer,
        review_id=review.pk,
        outcome=ReviewOutcome.SAME_PERSON,
        note="Called the Board: the SSN in the file was mistyped",
    )
    assert Wallet.objects.get(player=review.player).excluded_since is not None
    with pytest.raises(Conflict):
        service.list_review_decide(
            actor=officer, review_id=review.pk, outcome=ReviewOutcome.NOT_THE_PERSON, note="x"
        )


@pytest.mark.clause("reading:exclusion-list-import", kind="proves")
def test_815a4_a_near_match_goes_to_review_and_can_be_cleared(officer, other_player):
    imported(officer, full_edition(line("Demo", "Another", "1980-01-01")))
    review = ListReview.objects.get(player=other_player)
    assert review.cause == ReviewCause.NEAR_MATCH
    assert Wallet.objects.get(player=other_player).excluded_since is None
    with pytest.raises(ValidationFailed):
        service.list_review_decide(
            actor=officer, review_id=review.pk, outcome=ReviewOutcome.NOT_THE_PERSON, note=" "
        )
    service.list_review_decide(
        actor=officer,
        review_id=review.pk,
        outcome=ReviewOutcome.NOT_THE_PERSON,
        note="Different middle name and address",
    )
    assert Wallet.objects.get(player=other_player).excluded_since is None


def test_815a8_a_listed_person_cannot_register_and_is_told_nothing_of_the_list(officer, holder_a):
    imported(officer, full_edition(line("Rivera", "Ana", "1988-08-08", aliases="Ann Rivers")))
    with pytest.raises(NotPermitted) as refused:
        register(holder_a, "ana", "Ann", "Rivers", "1988-08-08")
    assert str(refused.value) == msg.CANNOT_REGISTER
    assert AuditEvent.objects.filter(action="player.registration_refused").exists()


def test_815a4_a_person_listed_again_before_their_removal_is_confirmed_stays_listed(
    officer, officer2, other_player
):
    imported(officer, full_edition(OTHER))
    imported(officer, changes(("remove", OTHER)), kind=ListKind.CHANGES)
    assert ListEntry.objects.get().removal_asked_by is not None
    imported(officer, full_edition(OTHER, line("Nobody", "Else", "1970-05-05")))
    entry = ListEntry.objects.get(person_key=ListEntry.objects.order_by("pk").first().person_key)
    assert entry.removal_asked_by is None  # the Board lists them again: nothing to confirm
    with pytest.raises(Conflict):
        service.list_removal_confirm(actor=officer2, entry_id=entry.pk)
    assert Wallet.objects.get(player=other_player).excluded_since is not None


def test_815a4_an_officer_who_plays_decides_nothing_about_their_own_listing(
    officer, officer2, holder_a
):
    from django.contrib.auth.models import Group

    from portal.access.roles import Role, forget
    from tests.portal.factories import make_user

    playing = make_user("playing_officer", Role.PLAYER)
    playing.groups.add(Group.objects.get(name=Role.COMPLIANCE.value))
    forget(playing)
    me = line("Demo", "playing_officer", "1980-01-01")
    imported(officer, full_edition(me))
    imported(officer, changes(("remove", me)), kind=ListKind.CHANGES)
    entry = ListEntry.objects.get()
    with pytest.raises(NotPermitted) as refused:
        service.list_removal_confirm(actor=playing, entry_id=entry.pk)
    assert str(refused.value) == service.OWN_ENTRY
    entry.refresh_from_db()
    assert entry.removed_at is None

    imported(officer2, full_edition(line("Demo", "Other", "1980-01-01"), me))
    review = ListReview.objects.get(player=playing)
    with pytest.raises(NotPermitted):
        service.list_review_decide(
            actor=playing, review_id=review.pk, outcome=ReviewOutcome.NOT_THE_PERSON, note="Me"
        )
    review.refresh_from_db()
    assert review.decided_at is None


def test_815a4_a_session_begun_while_the_list_was_applied_ends_as_it_begins(other_player):
    """A sign-in racing the import: its session began after the instant the exclusion
    applies from, and is ended at its own start, never before it."""
    import datetime

    from django.utils import timezone

    from tests.portal.factories import in_session

    racing = PlaySession.objects.get(pk=in_session(other_player))
    earlier = timezone.now() - datetime.timedelta(seconds=1)
    assert service.sessions_end(other_player.pk, at=earlier)[0] == 1
    racing.refresh_from_db()
    assert racing.ended_at == racing.started_at
