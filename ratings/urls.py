from django.urls import path

from ratings import views

urlpatterns = [
    path("leaderboard/", views.leaderboard_page, name="leaderboard"),
    path("ratings/games/<int:game_id>/", views.game_rating_change, name="game-rating-change"),
]
