from django.urls import path

from lobby import views

# Paths and names as in the games and ratings apps, so existing links and reverse() hold.
urlpatterns = [
    path("lobby/", views.lobby, name="lobby"),
    path("lobby/live/", views.live_games_page, name="live-games"),
    path("lobby/challenges/", views.challenge_create, name="challenge-create"),
    path(
        "lobby/challenges/<int:challenge_id>/accept/",
        views.challenge_accept,
        name="challenge-accept",
    ),
    path(
        "lobby/challenges/<int:challenge_id>/decline/",
        views.challenge_decline,
        name="challenge-decline",
    ),
    path(
        "lobby/challenges/<int:challenge_id>/cancel/",
        views.challenge_cancel,
        name="challenge-cancel",
    ),
    path("play-now/", views.play_now, name="play-now"),
    path("play-computer/", views.computer_new, name="computer-new"),
]
