"""The checks the round's read (``portal.game.play.sql``) makes in its one statement, as
correlated subqueries over the rows it joins (``w`` the wallet, ``o`` the offering, ``a``
the account), each the same answer the ORM path (``portal.game.play.store``) reads by a
query of its own. Kept apart from the statements themselves, which they are built into."""

from __future__ import annotations

from portal.compliance.models import RecordStatus, TermsAndConditions
from portal.game.models import AccountLimit, TermsAcknowledgement
from portal.software.models import SoftwareApproval, SoftwareApprovalStatus

# The account's limits in force, {kind: amount}: all the round's checks read of them.
LIMIT_READ = ("account", "kind", "amount", "pending_until")


def limits_in_force_sql() -> str:
    """The account's limits in force as one JSON object by kind (as
    ``GamingAccount.objects.with_limits`` reads them), NULL when it has none."""
    field = {name: AccountLimit._meta.get_field(name).column for name in LIMIT_READ}
    return (
        f"(SELECT jsonb_object_agg(x.{field['kind']}, x.{field['amount']}) "
        f"FROM {AccountLimit._meta.db_table} x "
        f"WHERE x.{field['account']} = a.id AND x.{field['pending_until']} IS NULL)"
    )


def terms_in_force_sql(column: str) -> str:
    """The offering's holder's terms in force (§ 812a.5): ``column`` of its one approved
    version, NULL when it has none."""
    table = TermsAndConditions._meta
    return (
        f"(SELECT t.{table.get_field(column).column} FROM {table.db_table} t "
        f"WHERE t.{table.get_field('holder').column} = o.holder_id "
        f"AND t.{table.get_field('status').column} = '{RecordStatus.APPROVED.value}' LIMIT 1)"
    )


def terms_accepted_sql() -> str:
    """Whether the player accepted the holder's terms in force."""
    accepted = TermsAcknowledgement._meta
    return (
        f"EXISTS (SELECT 1 FROM {accepted.db_table} k "
        f"WHERE k.{accepted.get_field('player').column} = w.player_id "
        f"AND k.{accepted.get_field('terms').column} = {terms_in_force_sql('id')})"
    )


def software_approved_sql() -> str:
    """Whether the identity bound (the running software's digest) has an approval in force
    (§ 461a.4), as ``portal.software.selectors.running_software_approved`` reads it."""
    approval = SoftwareApproval._meta
    return (
        f"EXISTS (SELECT 1 FROM {approval.db_table} sa "
        f"WHERE sa.{approval.get_field('digest').column} = %s "
        f"AND sa.{approval.get_field('status').column} = "
        f"'{SoftwareApprovalStatus.APPROVED.value}')"
    )
