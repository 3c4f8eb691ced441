"""JSON API of the matchmaking queue (``/api/queue``): thin views over the queue services.

``GET`` the caller's status, ``POST {"game", "players", "stake"}`` to queue (201), ``DELETE``
to leave (instant; seated at an online table that has not started, stand up — a buy-in
entry comes back). Refusals leave as ``{"detail", "code"}``: 403 for guests, 400 for bad
input, 409 when the player's state forbids it. Live changes arrive on the lobby socket.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.api import CsrfSessionAuthentication
from accounts.identity import player_from_request
from cardgames.catalogue import GAMES

from . import selectors, services
from .errors import QueueError

BAD_INPUT = {"unknown_game", "bad_players", "bad_stake"}


class JoinSerializer(serializers.Serializer):
    game = serializers.ChoiceField(choices=GAMES)
    players = serializers.IntegerField(min_value=2, max_value=12)
    stake = serializers.ChoiceField(choices=list(services.STAKES), default=0, help_text="0: free online")


class QueueView(APIView):
    authentication_classes = [CsrfSessionAuthentication]
    permission_classes = [AllowAny]

    def handle_exception(self, exc: Exception) -> Response:
        if isinstance(exc, QueueError):
            code = (
                status.HTTP_403_FORBIDDEN
                if exc.code == "login_required"
                else status.HTTP_400_BAD_REQUEST
                if exc.code in BAD_INPUT
                else status.HTTP_409_CONFLICT
            )
            return Response(exc.as_dict(), status=code)
        return super().handle_exception(exc)

    @extend_schema(responses={200: dict})
    def get(self, request: Request) -> Response:
        """The caller's queue status: idle, queued (position), seated (countdown) or playing."""
        return Response(selectors.queue_status(player=player_from_request(request._request)))

    @extend_schema(request=JoinSerializer, responses={201: dict})
    def post(self, request: Request) -> Response:
        """Queue for a game, a player count and a stake (0 free online, or 100/250/500/1000)."""
        player = player_from_request(request._request)
        if player is None or player.user_id is None:
            raise QueueError("login_required")
        serializer = JoinSerializer(data=request.data if isinstance(request.data, dict) else {})
        serializer.is_valid(raise_exception=True)
        data: dict[str, Any] = dict(serializer.validated_data)
        entry = services.join_queue(
            player=player, game=data["game"], players=data["players"], stake=data["stake"]
        )
        return Response(services.queued_event(entry), status=status.HTTP_201_CREATED)

    @extend_schema(responses={200: dict})
    def delete(self, request: Request) -> Response:
        """Leave the queue (or stand up from an online table that has not started)."""
        return Response(services.leave_queue(player=player_from_request(request._request)))
