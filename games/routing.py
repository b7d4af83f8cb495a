from django.urls import path

from games.consumers import GameConsumer, LobbyConsumer

websocket_urlpatterns: list = [
    path("ws/games/<int:game_id>/", GameConsumer.as_asgi()),
    path("ws/lobby/", LobbyConsumer.as_asgi()),
]
