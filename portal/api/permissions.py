"""The API's gate, which only asks ``portal.access.policy`` (the one answer to "may they?").

Each request needs the view's read action (VIEW, or VIEW_AUDIT for the audit trail; the
view's ``read_denial`` says why not): a player may not even list. A write needs, in
addition, the action the view names for it (DRAFT, DECIDE, WITHDRAW, MANAGE_HOLDERS, PLAY),
so a role that may never do it is refused with the policy's own message before its
payload is read. The services ask the policy again, with the record, and also enforce
what depends on its history (four-eyes).
"""

from __future__ import annotations

from rest_framework.permissions import BasePermission

from portal.access import policy


class PolicyPermission(BasePermission):
    message = policy.NOT_SIGNED_IN

    def _allowed(self, user, action: policy.Action, obj=None) -> bool:
        reason = policy.denial(user, action, obj)
        if reason is not None:
            self.message = reason
        return reason is None

    def has_permission(self, request, view) -> bool:
        reason = view.read_denial(request.user)
        if reason is not None:
            self.message = reason
            return False
        action = view.required_action()
        return action is None or self._allowed(request.user, action)

    def has_object_permission(self, request, view, obj) -> bool:
        action = view.required_action()
        return action is None or self._allowed(request.user, action, obj)
