"""Idempotent demo data for `make run`."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

DEMO_ADMIN = ("admin", "jinzi-admin-demo")


class Command(BaseCommand):
    help = "Create the demo users and records (safe to run again)."

    def handle(self, *args, **options):
        username, password = DEMO_ADMIN
        user_model = get_user_model()
        user, created = user_model.objects.get_or_create(
            username=username, defaults={"is_staff": True, "is_superuser": True}
        )
        if created:
            user.set_password(password)
            user.save(update_fields=["password"])
        self.stdout.write(f"demo superuser: {username} / {password}")
