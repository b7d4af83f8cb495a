"""HTTP and WebSocket entry point, served by Daphne."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from games.live.routing import websocket_urlpatterns as game_sockets  # noqa: E402
from realtime.handshake import (  # noqa: E402  (needs Django set up first)
    AddressBudgetGuard,
    BadCharactersGuard,
    OutageGuard,
    allowed_hosts_origin_validator,
    pooled_auth_middleware_stack,
)
from tournaments.routing import websocket_urlpatterns as arena_sockets  # noqa: E402
from user_socket.routing import websocket_urlpatterns as user_sockets  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": allowed_hosts_origin_validator(
            BadCharactersGuard(
                AddressBudgetGuard(
                    OutageGuard(
                        pooled_auth_middleware_stack(
                            URLRouter(game_sockets + user_sockets + arena_sockets)
                        )
                    )
                )
            )
        ),
    }
)
