from django.urls import path

from tournaments.consumers import ArenaConsumer

websocket_urlpatterns: list = [
    path("ws/arenas/<int:arena_id>/", ArenaConsumer.as_asgi()),
]
