from django.apps import AppConfig


class UserSocketConfig(AppConfig):
    """The user socket, open on every page of a signed-in player: one part per app (games,
    lobby, tournaments), composed here, on top of them all; with the header's script and
    the context processor that draws the header's "your game"."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "user_socket"
