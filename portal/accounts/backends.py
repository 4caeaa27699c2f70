"""Sign-in: Django's model backend, loading the signed-in user with their roles in one query.

Authentication (username and password) is Django's own. Only ``get_user``, which runs on
every signed-in request, is replaced: ``principals.by_id`` reads the user, their groups
and their profile together. The checks stay Django's: an inactive user is not signed
in, and ``django.contrib.auth`` still verifies the session against the password hash.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import ValidationError

from portal.accounts import principals


class PortalBackend(ModelBackend):
    def get_user(self, user_id):
        try:
            pk = get_user_model()._meta.pk.to_python(user_id)
        except ValidationError:
            return None
        user = principals.by_id(pk)
        return user if user is not None and self.user_can_authenticate(user) else None
