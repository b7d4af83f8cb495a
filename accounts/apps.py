from __future__ import annotations

from typing import Any

from django.apps import AppConfig
from django.conf import settings
from django.db.models.signals import post_save


def _username_skeletons_keep(
    sender: Any, instance: Any, created: bool, update_fields: Any = None, **kwargs: Any
) -> None:
    from accounts.services import username_skeletons_keep

    # A save that names its fields and not the username (a login's last_login) keeps the name.
    if update_fields is not None and "username" not in update_fields:
        return
    username_skeletons_keep(user=instance, created=created)


class AccountsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "accounts"

    def ready(self) -> None:
        post_save.connect(
            _username_skeletons_keep,
            sender=settings.AUTH_USER_MODEL,
            dispatch_uid="accounts.username_skeletons",
        )
