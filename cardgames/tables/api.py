"""JSON API of rooms and tables (/api/tables…, /api/rooms/<code>, /api/invitations…): thin views.

Each view parses its body with a serializer, calls one service with the request's
``Player`` (accounts.identity), and renders; a ``TableError`` leaves as
``{"detail", "code"}`` with a 4xx. Moves go over the table socket, not this API.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.authentication import CsrfSessionAuthentication
from accounts.guests import TOO_MANY_GUESTS, start_guest
from accounts.identity import Player, player_from_request
from accounts.throttling import client_ip
from cardgames.bots import LEVELS
from cardgames.catalogue import GAMES
from config.api import paginate
from config.schema import PAGE_PARAMETER, paginated

from . import access, endgame, selectors, services
from .errors import TableError
from .models import Table

NOT_FOUND_CODES = {"no_such_table", "no_such_invitation"}
FORBIDDEN_CODES = {
    "not_host",
    "identity_required",
    "login_required",
    "spectator",
    "not_seated",
    "muted",
    "private_room",
}
TOO_MANY_CODES = {"too_many_guesses", "too_many_guests", "too_many_rooms_here", "busy"}
#: the player's state forbids it now (a rematch not offered yet; the queue's own refusals)
CONFLICT_CODES = {"no_rematch_yet", "already_queued", "already_playing", "insufficient_coins", "queue_busy"}
#: a room's code, for a door that takes the table's id (issue 26: the code is the room's key)
CODE_PARAMETER = OpenApiParameter(
    "code",
    OpenApiTypes.STR,
    OpenApiParameter.QUERY,
    required=False,
    description="The room's code, for a friends or practice room you neither sit at nor were invited to.",
)


def error_response(exc: TableError) -> Response:
    code = (
        status.HTTP_404_NOT_FOUND
        if exc.code in NOT_FOUND_CODES
        else status.HTTP_403_FORBIDDEN
        if exc.code in FORBIDDEN_CODES
        else status.HTTP_429_TOO_MANY_REQUESTS
        if exc.code in TOO_MANY_CODES
        else status.HTTP_409_CONFLICT
        if exc.code in CONFLICT_CODES
        else status.HTTP_400_BAD_REQUEST
    )
    return Response(exc.as_dict(), status=code)


def room_link(request: Request, table: Table) -> str:
    return request.build_absolute_uri(f"/mesa/{table.code}/") if table.code else ""


def room_summary(request: Request, table: Table) -> dict[str, Any]:
    return {
        "id": table.pk,
        "code": table.code,
        "link": room_link(request, table),
        "game": table.game,
        "mode": table.mode,
        "status": table.status,
        "num_players": table.num_players,
        "options": table.options,
        "seats": [{"seat": s.index, "name": s.name, "kind": s.kind} for s in table.seats.all()],
        # the code opens a room's socket for a spectator (a seat needs none): issue 26
        "socket": f"/ws/tables/{table.pk}/" + (f"?code={table.code}" if table.code else ""),
    }


class CreateRoomSerializer(serializers.Serializer):
    game = serializers.ChoiceField(choices=GAMES)
    mode = serializers.ChoiceField(choices=[m.value for m in services.ROOM_MODES])
    players = serializers.IntegerField(required=False, min_value=2, max_value=12)
    options = serializers.DictField(required=False)
    bot_level = serializers.ChoiceField(choices=LEVELS, default="normal")
    name = serializers.CharField(required=False, max_length=40, help_text="a guest's display name (PF-22)")


class NameSerializer(serializers.Serializer):
    name = serializers.CharField(required=False, max_length=40)


class RoomJoinSerializer(NameSerializer):
    code = serializers.CharField(
        required=False, max_length=16, help_text="the room's code (its link carries it; PF-24)"
    )


class BotSerializer(serializers.Serializer):
    level = serializers.ChoiceField(choices=LEVELS)
    seat = serializers.IntegerField(required=False, min_value=0, max_value=11)


class MuteSerializer(serializers.Serializer):
    seat = serializers.IntegerField(min_value=0, max_value=11)
    muted = serializers.BooleanField(default=True)


class ChatSerializer(serializers.Serializer):
    text = serializers.CharField(max_length=2000, trim_whitespace=False)


class InviteSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=40)


class TablesAPIView(APIView):
    authentication_classes = [CsrfSessionAuthentication]
    permission_classes = [AllowAny]

    def player(self, request: Request, name: str | None = None) -> Player | None:
        """The request's player; a visitor who typed a name becomes a guest (PF-22, PF-24)."""
        player = player_from_request(request._request)
        if player is None and name:
            try:
                start_guest(request._request, name=name)
            except ValidationError as exc:
                code = "too_many_guests" if exc.code == TOO_MANY_GUESTS else "identity_required"
                raise TableError(code, " ".join(exc.messages)) from None
            player = player_from_request(request._request)
        return player

    def watched(self, request: Request, table_id: int, code: Any = None) -> Table:
        """The table, if the caller may see it (issue 26, ``access``): a room needs its ``code``
        (the query's, unless given), a seat, an invitation or staff; online tables are public."""
        table = selectors.get_table(table_id)
        if code is None:
            code = request.query_params.get("code")
        access.require_watch(
            table, player_from_request(request._request), code, address=client_ip(request._request)
        )
        return table

    def valid(self, serializer_class: type[serializers.Serializer], request: Request) -> dict[str, Any]:
        serializer = serializer_class(data=request.data if isinstance(request.data, dict) else {})
        serializer.is_valid(raise_exception=True)
        return dict(serializer.validated_data)

    def handle_exception(self, exc: Exception) -> Response:
        if isinstance(exc, TableError):
            return error_response(exc)
        return super().handle_exception(exc)


class TableListView(TablesAPIView):
    @extend_schema(request=CreateRoomSerializer, responses={201: dict})
    def post(self, request: Request) -> Response:
        """Create a room (bots or friends); its creator is the host at seat 0."""
        data = self.valid(CreateRoomSerializer, request)
        table = services.create_room(
            player=self.player(request, data.get("name")),
            game=data["game"],
            mode=data["mode"],
            players=data.get("players"),
            options=data.get("options"),
            bot_level=data["bot_level"],
            address=client_ip(request._request),
        )
        return Response(room_summary(request, table), status=status.HTTP_201_CREATED)

    @extend_schema(
        operation_id="tables_list",
        parameters=[PAGE_PARAMETER],
        responses={200: paginated("PaginatedRoomList", serializers.DictField())},
    )
    def get(self, request: Request) -> Response:
        """The caller's live tables, to go back to, a page at a time."""
        player = self.player(request)
        tables = selectors.running_tables(player=player) if player is not None else []
        return paginate(request, self, tables, lambda table: room_summary(request, table))


class RoomByCodeView(TablesAPIView):
    @extend_schema(responses={200: dict})
    def get(self, request: Request, code: str) -> Response:
        """A live room by its code (PF-3, PF-23); wrong codes are counted per address (issue 26)."""
        table = access.find_room(
            code=code, address=client_ip(request._request), player=player_from_request(request._request)
        )
        return Response(room_summary(request, table))


class TableDetailView(TablesAPIView):
    @extend_schema(parameters=[CODE_PARAMETER], responses={200: dict})
    def get(self, request: Request, table_id: int) -> Response:
        """The caller's envelope: the same as the socket's snapshot."""
        table = self.watched(request, table_id)
        return Response(selectors.table_view_for(table=table, viewer=self.player(request)))


class JoinView(TablesAPIView):
    @extend_schema(request=RoomJoinSerializer, responses={200: dict})
    def post(self, request: Request, table_id: int) -> Response:
        """Sit at a waiting friends room, or watch (``seat`` null) a started or full one (PF-26).

        A room is joined with its ``code`` (or an invitation): its id alone is no key (issue 26)."""
        data = self.valid(RoomJoinSerializer, request)
        code = data.get("code", "")
        self.watched(request, table_id, code)  # before a visitor's name makes a guest
        seat = services.join_room(table_id=table_id, player=self.player(request, data.get("name")), code=code)
        table = selectors.get_table(table_id)
        return Response({**room_summary(request, table), "seat": seat.index if seat else None})


LeaveSerializer = inline_serializer(
    "LeaveOutcome",
    {
        "outcome": serializers.ChoiceField(
            choices=["left", "closed", "stand_in", "kept"],
            help_text="left: stood up before the start; closed: the host closed the room; stand_in: "
            "the PF-63 stand-in plays the seat from now on; kept: nothing changed (PF-63 keeps an "
            "online seat and a buy-in entry; a finished game)",
        )
    },
)
RematchSerializer = inline_serializer(
    "RematchAnswer",
    {
        "kind": serializers.ChoiceField(choices=["room", "queue"]),
        "table": serializers.IntegerField(allow_null=True, help_text="the rematch's room"),
        "code": serializers.CharField(allow_null=True),
        "url": serializers.CharField(allow_null=True, help_text="the rematch's page"),
        "status": serializers.CharField(allow_null=True, help_text="the rematch room's status"),
        "seat": serializers.IntegerField(
            allow_null=True, help_text="the caller's seat there (null: watching)"
        ),
        "queued": serializers.DictField(
            allow_null=True, help_text="online: the queue event (docs/protocol.md)"
        ),
    },
)


class LeaveView(TablesAPIView):
    @extend_schema(request=None, responses={200: LeaveSerializer})
    def post(self, request: Request, table_id: int) -> Response:
        """ "Salir de la mesa" (issue 25 item 5): stand up before the start (a room's host closes it),
        hand a started friends or bots seat to the PF-63 stand-in; online seats keep PF-63's rule."""
        outcome = endgame.leave_table(table_id=table_id, player=self.player(request))
        return Response({"outcome": outcome})


class CloseView(TablesAPIView):
    @extend_schema(request=None, responses={204: None})
    def post(self, request: Request, table_id: int) -> Response:
        """The host closes a room that has not started; everyone on it is told (issue 25 item 5)."""
        endgame.close_room(table_id=table_id, player=self.player(request))
        return Response(status=status.HTTP_204_NO_CONTENT)


class RematchView(TablesAPIView):
    @extend_schema(request=None, responses={200: RematchSerializer})
    def post(self, request: Request, table_id: int) -> Response:
        """The rematch of a finished table (issue 25 item 4): a friends room's host offers
        "Revancha" and the others accept it with the same call; a bots room's "Otra partida" is
        dealt at once; an online table's "Buscar otra" queues again (same game, players, stake)."""
        done = endgame.rematch(
            table_id=table_id, player=self.player(request), address=client_ip(request._request)
        )
        room = done.table
        return Response(
            {
                "kind": done.kind,
                "table": room.pk if room else None,
                "code": room.code if room else None,
                "url": f"/mesa/{room.code}/" if room and room.code else None,
                "status": room.status if room else None,
                "seat": done.seat,
                "queued": done.queued,
            }
        )


class StartView(TablesAPIView):
    @extend_schema(request=None, responses={200: dict})
    def post(self, request: Request, table_id: int) -> Response:
        """The host starts a full room (PF-25)."""
        table = services.start_table(table_id=table_id, player=self.player(request))
        return Response(room_summary(request, table))


class BotsView(TablesAPIView):
    @extend_schema(request=BotSerializer, responses={201: dict})
    def post(self, request: Request, table_id: int) -> Response:
        """The host seats a bot of a level in an empty seat."""
        data = self.valid(BotSerializer, request)
        seat = services.add_bot(
            table_id=table_id, player=self.player(request), level=data["level"], seat=data.get("seat")
        )
        return Response({"seat": seat.index, "level": seat.bot_level}, status=status.HTTP_201_CREATED)


class SeatView(TablesAPIView):
    @extend_schema(request=BotSerializer, responses={200: dict})
    def patch(self, request: Request, table_id: int, seat: int) -> Response:
        """The host changes a bot's level."""
        data = self.valid(BotSerializer, request)
        changed = services.set_bot_level(
            table_id=table_id, player=self.player(request), seat=seat, level=data["level"]
        )
        return Response({"seat": changed.index, "level": changed.bot_level})

    @extend_schema(responses={204: None})
    def delete(self, request: Request, table_id: int, seat: int) -> Response:
        """The host frees a seat before the start (a bot, or a person)."""
        services.remove_seat(table_id=table_id, player=self.player(request), seat=seat)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MuteView(TablesAPIView):
    @extend_schema(request=MuteSerializer, responses={204: None})
    def post(self, request: Request, table_id: int) -> Response:
        data = self.valid(MuteSerializer, request)
        services.set_muted(
            table_id=table_id, player=self.player(request), seat=data["seat"], muted=data["muted"]
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


class ChatView(TablesAPIView):
    @extend_schema(parameters=[CODE_PARAMETER], responses={200: dict})
    def get(self, request: Request, table_id: int) -> Response:
        """The room's chat, the last 50 messages (spectators read it too, PF-34)."""
        table = self.watched(request, table_id)
        return Response({"results": selectors.chat_history(table=table)})

    @extend_schema(request=ChatSerializer, responses={201: dict})
    def post(self, request: Request, table_id: int) -> Response:
        data = self.valid(ChatSerializer, request)
        message = services.post_chat(table_id=table_id, player=self.player(request), text=data["text"])
        return Response(services.chat_message_dict(message), status=status.HTTP_201_CREATED)


class InvitationListView(TablesAPIView):
    @extend_schema(
        parameters=[PAGE_PARAMETER],
        responses={200: paginated("PaginatedInvitationList", serializers.DictField())},
    )
    def get(self, request: Request) -> Response:
        """The caller's pending invitations, a page at a time."""
        player = self.player(request)
        if player is None or player.user_id is None:
            return paginate(request, self, [], dict)
        return paginate(request, self, selectors.pending_invitation_dicts(user_id=player.user_id), dict)


class InviteView(TablesAPIView):
    @extend_schema(request=InviteSerializer, responses={201: dict})
    def post(self, request: Request, table_id: int) -> Response:
        """Invite a registered player by username; they hear it live (PF-14, PF-61)."""
        data = self.valid(InviteSerializer, request)
        invitation = services.invite(
            table_id=table_id, sender=self.player(request), username=data["username"]
        )
        return Response(services.invitation_dict(invitation), status=status.HTTP_201_CREATED)


class InvitationAnswerView(TablesAPIView):
    answer = "accept"

    @extend_schema(request=None, responses={200: dict})
    def post(self, request: Request, invitation_id: int) -> Response:
        seat = services.respond_invitation(
            invitation_id=invitation_id, player=self.player(request), accept=self.answer == "accept"
        )
        return Response({"status": self.answer, "seat": seat.index if seat else None})


class ReplayView(TablesAPIView):
    @extend_schema(parameters=[CODE_PARAMETER], responses={200: dict})
    def get(self, request: Request, table_id: int) -> Response:
        """A finished game step by step, as the caller was entitled to see it."""
        table = self.watched(request, table_id)
        return Response(selectors.replay_for(table=table, viewer=self.player(request)))


class VerifyView(TablesAPIView):
    @extend_schema(
        parameters=[CODE_PARAMETER],
        responses=inline_serializer(
            "ShuffleCheck",
            {
                "seed": serializers.CharField(),
                "seed_hash": serializers.CharField(),
                "seed_matches_hash": serializers.BooleanField(),
                "replay_matches_final_state": serializers.BooleanField(),
                "ok": serializers.BooleanField(),
            },
        ),
    )
    def get(self, request: Request, table_id: int) -> Response:
        """The public shuffle check of a finished game: seed ↔ commitment, log ↔ final state."""
        return Response(selectors.verify_table(table=self.watched(request, table_id)))
