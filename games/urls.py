from django.urls import path

from games import views_play

urlpatterns = [
    # Play: same-device games and the game page (the lobby is lobby.urls).
    path("games/same-device/", views_play.same_device_new, name="same-device-new"),
    path("games/<int:game_id>/", views_play.game_page, name="game"),
]
