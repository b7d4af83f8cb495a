from django.urls import path

from user_socket.consumer import UserConsumer

websocket_urlpatterns: list = [
    path("ws/user/", UserConsumer.as_asgi()),
    # The former address, kept while pages (and open tabs) move to /ws/user/.
    path("ws/lobby/", UserConsumer.as_asgi()),
]
