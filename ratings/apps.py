from django.apps import AppConfig


class RatingsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "ratings"

    def ready(self) -> None:
        # games says when a game ends or is voided and knows nothing of ratings; importing
        # the receivers connects them, once the models are loaded.
        from ratings import receivers  # noqa: F401
