"""§ 461a.4 on PostgreSQL: the round's fixed SQL reads whether the software running is
approved in its one locked read (still BEGIN, the read, the write, COMMIT), records the
software's identity in its write, and refuses a round on software not approved having
written nothing and released the wallet."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from portal.core.errors import Unavailable
from portal.core.software import running_identity
from portal.game.chain import digest_of
from portal.game.models import Bet, Round
from portal.software.models import SoftwareApproval, SoftwareApprovalStatus
from portal.software.selectors import not_approved_reason
from tests.portal.factories import in_session
from tests.portal.game.conftest import play_round as play
from tests.portal.game.test_round_locking import money, wallet_lock_is_free

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

RED = [{"kind": "red", "stake": 200}]
APPROVALS = SoftwareApproval._meta.db_table


def _naming_approvals(queries) -> list[str]:
    return [query["sql"] for query in queries if APPROVALS in query["sql"]]


@pytest.mark.clause("461a.4", kind="proves")
def test_461a4_the_approval_is_read_in_the_round_s_one_locked_read(funded_player, live_offering):
    session = in_session(funded_player)
    play(funded_player, live_offering, "software-sql-warm-up", RED, session=session)

    with CaptureQueriesContext(connection) as round_statements:
        played = play(funded_player, live_offering, "software-sql-1", RED, session=session)

    assert len(round_statements.captured_queries) == 4  # BEGIN, read, write, COMMIT
    (read,) = _naming_approvals(round_statements.captured_queries)
    assert "FOR UPDATE OF w" in read
    stored = Round.objects.get(pk=played.round.pk)
    assert stored.software_identity == running_identity().digest
    assert digest_of(stored, Bet.objects.filter(round=stored).order_by("position")) == stored.hash


@pytest.mark.clause("461a.4", kind="proves")
def test_461a4_a_round_on_software_not_approved_writes_nothing_and_frees_the_wallet(
    funded_player, live_offering
):
    before = money(funded_player)
    SoftwareApproval.objects.update(status=SoftwareApprovalStatus.WITHDRAWN)

    with CaptureQueriesContext(connection) as sent, pytest.raises(Unavailable) as refused:
        play(funded_player, live_offering, "software-sql-refused", RED)

    assert refused.value.message == not_approved_reason()
    assert not [q for q in sent.captured_queries if q["sql"].lstrip().startswith("WITH")]
    assert len(_naming_approvals(sent.captured_queries)) == 1
    assert money(funded_player) == before
    assert wallet_lock_is_free(funded_player)
