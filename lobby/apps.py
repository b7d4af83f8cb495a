from django.apps import AppConfig


class LobbyConfig(AppConfig):
    """Where players meet before a game: challenges, the "Play now" queue and their pages.

    It depends on games (it creates games through games.services) and on ratings (the
    rating a queued player is matched by); neither of them imports it.
    """

    default_auto_field = "django.db.models.BigAutoField"
    name = "lobby"

    def ready(self) -> None:
        # importing the receivers connects them, once the models are loaded.
        from lobby import receivers  # noqa: F401
