from django.apps import AppConfig


class FairplayConfig(AppConfig):
    """Fair play: waits for leavers, reports, automatic flags, moderation and refunds.

    It reads games and writes to the ratings ledger; the lobby and the arenas ask it whether
    a player may join, and nothing below it imports it.
    """

    default_auto_field = "django.db.models.BigAutoField"
    name = "fairplay"

    def ready(self) -> None:
        # importing the receivers connects them, once the models are loaded.
        from fairplay import receivers  # noqa: F401
