from django.urls import path

from games import views, views_play

urlpatterns = [
    path("", views.home, name="home"),
    path("rules/", views.rules, name="rules"),
    path("rules/fragment/", views.rules_fragment, name="rules-fragment"),
    # Play: lobby, challenges, same-device games and the game page.
    path("lobby/", views_play.lobby, name="lobby"),
    path("lobby/challenges/", views_play.challenge_create, name="challenge-create"),
    path(
        "lobby/challenges/<int:challenge_id>/accept/",
        views_play.challenge_accept,
        name="challenge-accept",
    ),
    path(
        "lobby/challenges/<int:challenge_id>/decline/",
        views_play.challenge_decline,
        name="challenge-decline",
    ),
    path(
        "lobby/challenges/<int:challenge_id>/cancel/",
        views_play.challenge_cancel,
        name="challenge-cancel",
    ),
    path("games/same-device/", views_play.same_device_new, name="same-device-new"),
    path("games/<int:game_id>/", views_play.game_page, name="game"),
]
