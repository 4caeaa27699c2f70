"""The one answer to "may this user do this (to this object)?".

Views, the API, the admin and the services all ask here. Who does what (reading:roles):
- compliance officers see every holder's records and decide them, never drafting
  for a holder, never deciding what they created, edited or submitted (four-eyes, enforced
  in the workflow because it depends on the record's history);
- managers see and change only their own holder's records and never decide;
- auditors read everything, verify and export the trail, and change nothing;
- payments staff see their own holder's player accounts, pay or refuse withdrawals and
  record deposits made at the holder (§ 812a.10); with managers and compliance officers
  they suspend accounts and record self-exclusions (§ 812a.6);
- a holder's supervisors, with compliance officers, propose and decide the voids and
  adjustments of settled rounds at their own holder's tables (§ 617a.6, § 812a.7(a)(9)),
  one proposing and another deciding (four-eyes, enforced in the corrections' workflow);
- reports are run by compliance officers and auditors about any holder, and by managers
  about their own holder only (``report_denial``): a manager sees and downloads their own
  holder's runs, never a run about every holder;
- a superuser may do what compliance and managers may (still under four-eyes);
- nobody acts on their own money: whoever also plays never pays or refuses their own
  withdrawal (§ 812a.10), records a deposit into their own account (§ 812a.7(a)) or
  proposes a void or an adjustment of a round they played (§ 617a.6, § 812a.7(a)(9))
  (``require_not_own``, which those services call after ``require``).
"""

from __future__ import annotations

from enum import StrEnum

from django.db.models import QuerySet

from portal.access.roles import Role, holder_id_of, roles_of
from portal.core.errors import NotPermitted


class Action(StrEnum):
    VIEW = "view"  # read compliance records
    DRAFT = "draft"  # create, edit a draft, submit, amend, set up offerings
    DECIDE = "decide"  # approve, reject, request changes
    WITHDRAW = "withdraw"  # withdraw an approval
    VIEW_AUDIT = "view_audit"  # browse and export the audit trail
    MANAGE_HOLDERS = "manage_holders"
    PLAY = "play"  # bet on a live offering with one's own wallet
    VIEW_TABLES = "view_tables"  # see offerings and whether they are live (staff and players)
    VIEW_ROUNDS = "view_rounds"  # look up any player's round by id
    OWN_API_TOKENS = "own_api_tokens"  # issue, list and revoke one's own API tokens
    RUN_REPORTS = "run_reports"  # request report runs (compliance, auditors; managers: own)
    VIEW_PLAYER_ACCOUNTS = "view_player_accounts"  # players' accounts with a holder
    PAY_OUT = "pay_out"  # decide withdrawals, record deposits made at the holder
    RESTRICT_ACCOUNTS = "restrict_accounts"  # suspend, record a self-exclusion
    CORRECT_ROUNDS = "correct_rounds"  # propose and decide voids and adjustments of rounds
    # Suspend a table while a suspected malfunction is checked, and reopen it
    # (reading:table-suspension): compliance officers, and the holder's supervisors.
    SUSPEND_TABLES = "suspend_tables"
    RECORD_SOFTWARE = "record_software"  # draft and decide the game software's approvals


NOT_SIGNED_IN = "sign in first"
WRONG_ROLE = "your role may not {action} here"
OTHER_HOLDER = "this record belongs to another certificate holder"
NO_HOLDER = "your account is not attached to a certificate holder"
OWN_HOLDER_REPORTS = "a manager runs reports about their own certificate holder only"


def _holder_of(obj) -> int | None:
    if obj is None:
        return None
    if hasattr(obj, "holder_id"):
        return obj.holder_id
    if hasattr(obj, "account"):  # a player's movement of money: its account's holder
        return obj.account.holder_id
    return getattr(obj, "pk", None)  # a CertificateHolder itself


def denial(user, action: Action, obj=None, *, holder_id: int | None = None) -> str | None:
    """Why ``user`` may not do ``action`` (to ``obj`` / for ``holder_id``), or None."""
    if user is None or not user.is_authenticated or not user.is_active:
        return NOT_SIGNED_IN
    roles = roles_of(user)
    superuser = user.is_superuser
    target_holder = holder_id if holder_id is not None else _holder_of(obj)

    if action in (Action.VIEW,):
        if superuser or roles & {Role.COMPLIANCE, Role.AUDITOR}:
            return None
        if Role.MANAGER in roles:
            return _own_holder(user, target_holder)
        return WRONG_ROLE.format(action="view compliance records")
    if action is Action.DRAFT:
        if Role.MANAGER in roles:
            return _own_holder(user, target_holder)
        if superuser:
            return None
        return WRONG_ROLE.format(action="draft or change a holder's records")
    if action is Action.DECIDE:
        if superuser or Role.COMPLIANCE in roles:
            return None
        return WRONG_ROLE.format(action="approve or reject records")
    if action is Action.WITHDRAW:
        if superuser or Role.COMPLIANCE in roles:
            return None
        if Role.MANAGER in roles:
            return _own_holder(user, target_holder)
        return WRONG_ROLE.format(action="withdraw an approval")
    if action is Action.VIEW_AUDIT:
        if superuser or roles & {Role.COMPLIANCE, Role.AUDITOR}:
            return None
        return WRONG_ROLE.format(action="read the audit trail")
    if action is Action.VIEW_TABLES:
        if denial(user, Action.VIEW, obj, holder_id=holder_id) is None or Role.PLAYER in roles:
            return None
        return WRONG_ROLE.format(action="see the tables")
    if action is Action.PLAY:
        return None if Role.PLAYER in roles else WRONG_ROLE.format(action="play")
    if action is Action.VIEW_ROUNDS:
        if superuser or roles & {Role.COMPLIANCE, Role.AUDITOR}:
            return None
        return WRONG_ROLE.format(action="look up other players' rounds")
    if action is Action.OWN_API_TOKENS:
        return None  # anyone signed in and active; a token acts with its user's roles
    if action is Action.RUN_REPORTS:
        if superuser or roles & {Role.COMPLIANCE, Role.AUDITOR}:
            return None
        if Role.MANAGER in roles:
            # Asked without a holder: whether they may run any report (their own holder's);
            # the run itself is judged by ``report_denial``, with the holder it is about.
            return _own_holder(user, target_holder)
        return WRONG_ROLE.format(action="run reports")
    if action is Action.VIEW_PLAYER_ACCOUNTS:
        if superuser or roles & {Role.COMPLIANCE, Role.AUDITOR}:
            return None
        if roles & {Role.MANAGER, Role.PAYMENTS, Role.SUPERVISOR}:
            return _own_holder(user, target_holder)
        return WRONG_ROLE.format(action="see players' accounts")
    if action is Action.PAY_OUT:
        if Role.PAYMENTS in roles:
            return _own_holder(user, target_holder)
        if superuser:
            return None
        return WRONG_ROLE.format(action="pay withdrawals or record deposits")
    if action is Action.RESTRICT_ACCOUNTS:
        if superuser or Role.COMPLIANCE in roles:
            return None
        if roles & {Role.MANAGER, Role.PAYMENTS}:
            return _own_holder(user, target_holder)
        return WRONG_ROLE.format(action="suspend accounts or record self-exclusions")
    if action is Action.CORRECT_ROUNDS:
        if superuser or Role.COMPLIANCE in roles:
            return None
        if Role.SUPERVISOR in roles:
            return _own_holder(user, target_holder)
        return WRONG_ROLE.format(action="void or adjust rounds")
    if action is Action.SUSPEND_TABLES:
        if superuser or Role.COMPLIANCE in roles:
            return None
        if Role.SUPERVISOR in roles:
            return _own_holder(user, target_holder)
        return WRONG_ROLE.format(action="suspend or reopen tables")
    if action is Action.RECORD_SOFTWARE:
        if superuser or Role.COMPLIANCE in roles:
            return None
        return WRONG_ROLE.format(action="record the game software's approvals")
    if action is Action.MANAGE_HOLDERS:
        return None if superuser else WRONG_ROLE.format(action="manage certificate holders")
    raise ValueError(f"unknown action {action!r}")


def _own_holder(user, target_holder: int | None) -> str | None:
    own = holder_id_of(user)
    if own is None:
        return NO_HOLDER
    if target_holder is not None and target_holder != own:
        return OTHER_HOLDER
    return None


def report_holder(user) -> int | None:
    """The certificate holder ``user``'s report runs are fixed to: a manager's own holder;
    None for those who run reports about any holder (or about none)."""
    if user is None or not user.is_authenticated or user.is_superuser:
        return None
    roles = roles_of(user)
    if roles & {Role.COMPLIANCE, Role.AUDITOR} or Role.MANAGER not in roles:
        return None
    return holder_id_of(user)


def report_denial(user, holder_id: int | None) -> str | None:
    """Why ``user`` may not run a report about ``holder_id`` (None: every holder), or None.
    A manager's report is about their own holder, named: a report about every holder, or
    about another holder, is refused."""
    reason = denial(user, Action.RUN_REPORTS, holder_id=holder_id)
    if reason is not None:
        return reason
    own = report_holder(user)
    if own is not None and holder_id != own:
        return OWN_HOLDER_REPORTS
    return None


def require_report(user, holder_id: int | None) -> None:
    reason = report_denial(user, holder_id)
    if reason is not None:
        raise NotPermitted(reason)


def may(user, action: Action, obj=None, *, holder_id: int | None = None) -> bool:
    return denial(user, action, obj, holder_id=holder_id) is None


def require(user, action: Action, obj=None, *, holder_id: int | None = None) -> None:
    reason = denial(user, action, obj, holder_id=holder_id)
    if reason is not None:
        raise NotPermitted(reason)


def require_not_own(actor, *, player_id: int, message: str) -> None:
    """Refuse ``actor`` (``NotPermitted`` with ``message``, which cites the clause) when the
    money they would act on is their own: the player ``player_id``'s. A user may hold a
    staff role beside Player's, and their role does not let them decide about themselves."""
    if actor is not None and actor.pk is not None and actor.pk == player_id:
        raise NotPermitted(message)


def visible_accounts(user, queryset: QuerySet) -> QuerySet:
    """Narrow a queryset of players' holder accounts (or of rows with ``account``) to the
    ones ``user`` may see as staff: every holder's for compliance and auditors, their own
    holder's for managers and payments staff. A player's own are not staff's business
    here: the player's pages ask for them by player."""
    roles = roles_of(user)
    if user.is_authenticated and (user.is_superuser or roles & {Role.COMPLIANCE, Role.AUDITOR}):
        return queryset
    staff = {Role.MANAGER, Role.PAYMENTS, Role.SUPERVISOR}
    if roles & staff and (own := holder_id_of(user)) is not None:
        field = "holder_id" if hasattr(queryset.model, "holder_id") else "account__holder_id"
        return queryset.filter(**{field: own})
    return queryset.none()


def visible(user, queryset: QuerySet) -> QuerySet:
    """Narrow a queryset of holder-owned records (or of holders) to what ``user`` may see."""
    roles = roles_of(user)
    if user.is_authenticated and (user.is_superuser or roles & {Role.COMPLIANCE, Role.AUDITOR}):
        return queryset
    if Role.MANAGER in roles and (own := holder_id_of(user)) is not None:
        field = "holder_id" if hasattr(queryset.model, "holder_id") else "pk"
        return queryset.filter(**{field: own})
    return queryset.none()
