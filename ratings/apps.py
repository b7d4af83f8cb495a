from django.apps import AppConfig


class RatingsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "ratings"

    def ready(self) -> None:
        # games says when a game ends or is voided and knows nothing of ratings (issue 10).
        from games.signals import game_finished, game_voided
        from ratings.receivers import rate_finished_game, reverse_voided_game

        game_finished.connect(rate_finished_game, dispatch_uid="ratings.rate_finished_game")
        game_voided.connect(reverse_voided_game, dispatch_uid="ratings.reverse_voided_game")
