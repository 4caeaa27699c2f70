"""The audit trail's words for what the players app writes: registrations, readings and
verifications of the player file (which fields, who and how: never the values), and
exclusions (§ 812a.2, § 815a.3, § 815a.4)."""

from __future__ import annotations

from portal.audit import labels

# After the players' money.
ORDER = 45

ACTIONS = {
    "player.register": "Player registered",
    "player.identity_view": "Player's identity read",
    "player.identity_verify": "Player's identity verified",
    "player.self_exclude": "Player excluded themselves",
    "player.registration_refused": "Registration refused",
    "player.keys_rotate": "Player files sealed again under a new key",
    "player.list_exclude": "Player excluded by the Board's list",
    "exclusion_list.import": "Board's self-exclusion list imported",
    "exclusion_list.removal_confirm": "Removal from the Board's list confirmed",
    "exclusion_list.review_decide": "Possible match on the Board's list decided",
}
GROUPS = {
    "player": "Player registration and exclusion",
    "exclusion_list": "The Board's self-exclusion list",
}
FIELDS = {
    "fields_given": "Details given",
    "fields_changed": "Details changed",
    "verified": "Identity verified",
    "verified_by": "Verified by",
    "method": "How it was verified",
    "period": "Period",
    "starts_at": "Starts",
    "ends_at": "Ends",
    "cause": "Why",
    "holder_ids": "Holders told",
    "list_entry": "List entry",
    "sessions_ended": "Sessions ended",
    "tokens_revoked": "API tokens revoked",
    "kind": "Kind of file",
    "people": "People in the file",
    "added": "Added",
    "removals_asked": "Removals asked",
    "players_excluded": "Players excluded",
    "reviews_opened": "Possible matches to review",
    "removal_asked_by": "Removal asked by import",
    "players_lifted": "Players no longer excluded",
    "outcome": "Decision",
    "player_id": "Player",
    "player_files": "Player files",
    "list_entries": "List entries",
    "list_imports": "List files",
}


def register() -> None:
    labels.register_actions(ACTIONS, order=ORDER)
    labels.register_action_groups(GROUPS)
    labels.register_object_kinds(
        ["player", "exclusion_list_import", "exclusion_list_entry", "exclusion_list_review"]
    )
    labels.register_fields(FIELDS, people=["verified_by"])
