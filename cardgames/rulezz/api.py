"""Rulezz JSON API: thin views over ``services`` and ``selectors`` (signed-up users and guests alike)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.authentication import CsrfSessionAuthentication
from config.api import paginate
from config.schema import PAGE_PARAMETER, paginated

from . import selectors, services
from .messages import rulezz_message
from .scoring import RulezzError
from .stores import SheetData, SheetNotFound
from .views import sheet_owner


class SheetCreateSerializer(serializers.Serializer):
    title = serializers.CharField(max_length=80, required=False, allow_blank=True, default="")
    players = serializers.ListField(child=serializers.CharField(max_length=20), max_length=8)


class RoundSerializer(serializers.Serializer):
    points = serializers.DictField(help_text="Undoubled points per player name (SK-36).")
    closer = serializers.JSONField(help_text="The name of the one player who closed the round.")


class ScoredRoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    points = serializers.DictField(child=serializers.IntegerField(), help_text="As entered (undoubled).")
    scores = serializers.DictField(child=serializers.IntegerField(), help_text="Added to the totals.")
    closer = serializers.CharField()
    doubled = serializers.BooleanField()
    totals = serializers.DictField(child=serializers.IntegerField())


class SheetSerializer(serializers.Serializer):
    """A sheet as the API answers it: the input and its scoring, recomputed on every read."""

    id = serializers.CharField()
    title = serializers.CharField(allow_blank=True)
    players = serializers.ListField(child=serializers.CharField())
    rounds = ScoredRoundSerializer(many=True)
    totals = serializers.DictField(child=serializers.IntegerField())
    over = serializers.BooleanField()
    winners = serializers.ListField(child=serializers.CharField())
    placements = serializers.DictField(child=serializers.IntegerField())


def sheet_payload(sheet: SheetData) -> dict[str, Any]:
    return {"id": sheet.id, "title": sheet.title, **sheet.result().as_dict()}


def refused(err: RulezzError) -> Response:
    return Response(
        {"detail": rulezz_message(err), "code": err.code, "round": err.round_number, "player": err.player},
        status=status.HTTP_400_BAD_REQUEST,
    )


def not_found() -> Response:
    return Response({"detail": "No such sheet.", "code": "not_found"}, status=status.HTTP_404_NOT_FOUND)


class RulezzAPIView(APIView):
    authentication_classes = [CsrfSessionAuthentication]
    permission_classes = [AllowAny]


class SheetListView(RulezzAPIView):
    @extend_schema(
        operation_id="rulezz_sheets_list",
        parameters=[PAGE_PARAMETER],
        responses={200: paginated("PaginatedSheetList", SheetSerializer())},
    )
    def get(self, request: Request) -> Response:
        """The owner's sheets, newest first, a page at a time (issue 13 item 13)."""
        sheets = selectors.sheet_list(owner=sheet_owner(request))
        return paginate(request, self, sheets, sheet_payload)

    @extend_schema(request=SheetCreateSerializer, responses={201: SheetSerializer})
    def post(self, request: Request) -> Response:
        data = SheetCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            sheet = services.sheet_create(owner=sheet_owner(request), **data.validated_data)
        except RulezzError as err:
            return refused(err)
        return Response(sheet_payload(sheet), status=status.HTTP_201_CREATED)


class SheetDetailView(RulezzAPIView):
    @extend_schema(responses={200: SheetSerializer})
    def get(self, request: Request, sheet_id: str) -> Response:
        try:
            return Response(sheet_payload(selectors.sheet_get(owner=sheet_owner(request), sheet_id=sheet_id)))
        except SheetNotFound:
            return not_found()

    @extend_schema(responses={204: None})
    def delete(self, request: Request, sheet_id: str) -> Response:
        try:
            services.sheet_delete(owner=sheet_owner(request), sheet_id=sheet_id)
        except SheetNotFound:
            return not_found()
        return Response(status=status.HTTP_204_NO_CONTENT)


class RoundListView(RulezzAPIView):
    @extend_schema(request=RoundSerializer, responses={201: SheetSerializer})
    def post(self, request: Request, sheet_id: str) -> Response:
        data = RoundSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            sheet = services.round_add(owner=sheet_owner(request), sheet_id=sheet_id, **data.validated_data)
        except SheetNotFound:
            return not_found()
        except RulezzError as err:
            return refused(err)
        return Response(sheet_payload(sheet), status=status.HTTP_201_CREATED)


class RoundDetailView(RulezzAPIView):
    @extend_schema(request=RoundSerializer, responses={200: SheetSerializer})
    def put(self, request: Request, sheet_id: str, number: int) -> Response:
        data = RoundSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            sheet = services.round_replace(
                owner=sheet_owner(request),
                sheet_id=sheet_id,
                number=number,
                **data.validated_data,
            )
        except SheetNotFound:
            return not_found()
        except RulezzError as err:
            return refused(err)
        return Response(sheet_payload(sheet))

    @extend_schema(responses={200: SheetSerializer})
    def delete(self, request: Request, sheet_id: str, number: int) -> Response:
        try:
            sheet = services.round_delete(owner=sheet_owner(request), sheet_id=sheet_id, number=number)
        except SheetNotFound:
            return not_found()
        except RulezzError as err:
            return refused(err)
        return Response(sheet_payload(sheet))
