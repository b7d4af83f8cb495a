from django.apps import AppConfig


class PagesConfig(AppConfig):
    """The site's public pages that belong to no game: home and the rule book."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "pages"
