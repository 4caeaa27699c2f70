"""The audit trail's words for what the accounts app writes: sign-in and security, people,
certificate holders and API tokens, the fields of their pictures, and how the trail names a
holder ("Holder “Keystone Casino”") and an API token ("API token “Ops feed”")."""

from __future__ import annotations

from portal.audit import labels
from portal.audit.labels import LoadedNames, PicturedObject
from portal.audit.names import trail_pictures
from portal.core.pages import object_name, register_kind_label

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


# A holder has no page of its own: it is named as the trail last recorded it (holders are
# added and changed only through audited services), so no holder's row is read for it.
def _holder_names(pks: set[int]) -> dict[int, str]:
    pictures = trail_pictures("holder", pks)
    return {pk: pic["name"] for pk, pic in pictures.items() if isinstance(pic.get("name"), str)}


def _holder_unnamed(holder: PicturedObject) -> bool:
    return not isinstance(holder.picture.get("name"), str)


def _holder(holder: PicturedObject, names: LoadedNames) -> str:
    name = holder.picture.get("name")
    if not isinstance(name, str) and holder.pk.isdigit():
        name = names.of("holder").get(int(holder.pk), "")
    return object_name("holder", holder.pk, title=name or "")


def _holder_reference(pk: int, names: LoadedNames) -> str:
    return names.of("holder").get(pk) or f"holder {pk}"


def _api_token(token: PicturedObject, names: LoadedNames) -> str | None:
    name = token.picture.get("name")
    return object_name("api_token", token.pk, title=name) if isinstance(name, str) else None


def register() -> None:
    labels.register_actions(ACTIONS, order=ORDER)
    labels.register_action_groups(GROUPS)
    labels.register_object_kinds(["holder", "user", "api_token"])
    labels.register_fields(FIELDS, records={"holder_id": "holder"})
    labels.register_object_namer(
        "holder",
        _holder,
        load=_holder_names,
        needs_load=_holder_unnamed,
        reference=_holder_reference,
    )
    register_kind_label("api_token", "API token")  # not "Api token"
    labels.register_object_namer("api_token", _api_token)
