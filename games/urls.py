from django.urls import path

from games import views, views_play

urlpatterns = [
    path("", views.home, name="home"),
    path("rules/", views.rules, name="rules"),
    path("rules/fragment/", views.rules_fragment, name="rules-fragment"),
    # Play: same-device games and the game page (the lobby is lobby.urls).
    path("games/same-device/", views_play.same_device_new, name="same-device-new"),
    path("games/<int:game_id>/", views_play.game_page, name="game"),
]
