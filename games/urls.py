from django.urls import path

from games import views

urlpatterns = [
    # Play: same-device games and the game page (the lobby is lobby.urls).
    path("games/same-device/", views.same_device_new, name="same-device-new"),
    path("games/<int:game_id>/", views.game_page, name="game"),
    path("games/<int:game_id>/rematch/", views.rematch, name="game-rematch"),
    path("games/<int:game_id>/replay/", views.replay, name="game-replay"),
    path("games/<int:game_id>/review/", views.review, name="game-review"),
    path("games/<int:game_id>/review/ask/", views.review_ask, name="game-review-ask"),
    path(
        "games/<int:game_id>/replay/<int:index>/computer/",
        views.replay_suggestion,
        name="game-replay-suggestion",
    ),
]
