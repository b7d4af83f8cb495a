from django.urls import path

from ratings import views

urlpatterns = [
    path("leaderboard/", views.leaderboard_page, name="leaderboard"),
    path("games/<int:game_id>/replay/", views.game_replay, name="game-replay"),
]
