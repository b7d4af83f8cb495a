from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    """Arenas: timed tournaments joined in one tap, paired in waves, with live standings.

    It creates games through games.services, reads ratings, and takes players out of the
    lobby's queue; none of those imports it.
    """

    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"

    def ready(self) -> None:
        # importing the receivers connects them, once the models are loaded.
        from tournaments import receivers  # noqa: F401
