"""The audit trail's words for what the accounts app writes: sign-in and security, people,
certificate holders and API tokens, and the fields of their pictures."""

from __future__ import annotations

from portal.audit import labels

# After the records and the rounds' corrections, before players' money.
ORDER = 30

ACTIONS = {
    "auth.sign_in": "Signed in",
    "auth.sign_in_failed": "Sign-in failed",
    "auth.locked_out": "Locked out after failed sign-ins",
    "auth.sign_out": "Signed out",
    "auth.password_change": "Password changed",
    "auth.password_set": "Password set",
    "auth.second_factor_enrol": "Second factor set up",
    "auth.second_factor_verify": "Second factor code accepted",
    "auth.second_factor_failed": "Second factor code refused",
    "auth.second_factor_remove": "Second factor removed",
    "auth.second_factor_reset": "Second factor reset",
    "auth.recovery_codes_renew": "Recovery codes renewed",
    "user.create": "Person added",
    "user.update": "Person's role or holder changed",
    "holder.create": "Certificate holder added",
    "holder.update": "Certificate holder changed",
    "api_token.issue": "API token issued",
    "api_token.revoke": "API token revoked",
}
GROUPS = {
    "auth": "Sign-in and security",
    "user": "Person",
    "holder": "Certificate holder",
}
FIELDS = {
    "holder_id": "Certificate holder",
    "licence_number": "Licence number",
    "gaming_day_start_hour": "Gaming day starts at (hour)",
    "ip": "Client address",
}


def register() -> None:
    labels.register_actions(ACTIONS, order=ORDER)
    labels.register_action_groups(GROUPS)
    labels.register_object_kinds(["holder", "user", "api_token"])
    labels.register_fields(FIELDS)
