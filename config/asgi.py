"""ASGI entry point: HTTP through Django, websockets through Channels.

Every connection first passes config.proxy.TrustedProxyHeaders (behind a trusted reverse proxy,
the client's address and scheme as the proxy saw them). Websockets pass
config.origins.SiteOriginValidator (the Origin's scheme, host and port must
be the site's: no cross-site or same-host-other-port sockets) and
accounts.socket_quota.SocketQuotaMiddleware (open sockets per session and address, issue 26) and
accounts.socket_identity.IdentityMiddleware, so consumers see ``scope["player"]`` (the user or
the guest, found once at the handshake). A path no route knows is refused at
the handshake (HTTP 403 to the client), never a 500 with a traceback (issue 13 item 12).
Request bodies over REQUEST_MAX_BODY_BYTES are refused with a 413 before they are read
(config/bodylimit.py). The process's background work (the in-process table runner) starts
with the process, through the ASGI lifespan protocol or daphne's reactor (config/lifespan.py).
"""

from __future__ import annotations

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()

from channels.generic.websocket import WebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import re_path  # noqa: E402

from accounts.socket_identity import IdentityMiddleware  # noqa: E402  (needs the app registry ready)
from accounts.socket_quota import SocketQuotaMiddleware  # noqa: E402
from cardgames.routing import websocket_urlpatterns  # noqa: E402
from config.bodylimit import BodyLimit, bound_daphne  # noqa: E402
from config.lifespan import Lifespan, start_with_daphne  # noqa: E402
from config.origins import SiteOriginValidator  # noqa: E402
from config.proxy import TrustedProxyHeaders  # noqa: E402


class UnknownPathConsumer(WebsocketConsumer):
    """Refuses the handshake of a socket path no route knows."""

    def connect(self) -> None:
        self.close()


websocket_routes = [*websocket_urlpatterns, re_path(r"", UnknownPathConsumer.as_asgi())]

# behind a trusted proxy, the client's address and scheme as the proxy saw them (config/proxy.py)
application = TrustedProxyHeaders(
    ProtocolTypeRouter(
        {
            "http": BodyLimit(django_asgi_app),
            "websocket": SiteOriginValidator(
                SocketQuotaMiddleware(IdentityMiddleware(URLRouter(websocket_routes)))
            ),
            "lifespan": Lifespan(),
        }
    )
)
# the in-process table runner starts with the process (config/lifespan.py)
start_with_daphne()
# daphne reads a whole body before the application sees it: bounded in its request class
bound_daphne()
