"""Rulezz JSON API: thin views over cardgames.services.rulezz (signed-up users and guests alike)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.api import CsrfSessionAuthentication
from cardgames.rulezz.scoring import RulezzError
from cardgames.rulezz_messages import rulezz_message
from cardgames.services import rulezz as service


class SheetCreateSerializer(serializers.Serializer):
    title = serializers.CharField(max_length=80, required=False, allow_blank=True, default="")
    players = serializers.ListField(child=serializers.CharField(max_length=20), max_length=8)


class RoundSerializer(serializers.Serializer):
    points = serializers.DictField(help_text="Undoubled points per player name (SK-36).")
    closer = serializers.JSONField(help_text="The name of the one player who closed the round.")


def sheet_payload(sheet: service.SheetData) -> dict[str, Any]:
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
    @extend_schema(responses={200: None})
    def get(self, request: Request) -> Response:
        store = service.store_for(request._request)
        return Response([sheet_payload(s) for s in store.all()])

    @extend_schema(request=SheetCreateSerializer, responses={201: None})
    def post(self, request: Request) -> Response:
        data = SheetCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            sheet = service.sheet_create(store=service.store_for(request._request), **data.validated_data)
        except RulezzError as err:
            return refused(err)
        return Response(sheet_payload(sheet), status=status.HTTP_201_CREATED)


class SheetDetailView(RulezzAPIView):
    @extend_schema(responses={200: None})
    def get(self, request: Request, sheet_id: str) -> Response:
        try:
            return Response(sheet_payload(service.store_for(request._request).get(sheet_id)))
        except service.SheetNotFound:
            return not_found()

    @extend_schema(responses={204: None})
    def delete(self, request: Request, sheet_id: str) -> Response:
        try:
            service.sheet_delete(store=service.store_for(request._request), sheet_id=sheet_id)
        except service.SheetNotFound:
            return not_found()
        return Response(status=status.HTTP_204_NO_CONTENT)


class RoundListView(RulezzAPIView):
    @extend_schema(request=RoundSerializer, responses={201: None})
    def post(self, request: Request, sheet_id: str) -> Response:
        data = RoundSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            sheet = service.round_add(
                store=service.store_for(request._request), sheet_id=sheet_id, **data.validated_data
            )
        except service.SheetNotFound:
            return not_found()
        except RulezzError as err:
            return refused(err)
        return Response(sheet_payload(sheet), status=status.HTTP_201_CREATED)


class RoundDetailView(RulezzAPIView):
    @extend_schema(request=RoundSerializer, responses={200: None})
    def put(self, request: Request, sheet_id: str, number: int) -> Response:
        data = RoundSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            sheet = service.round_replace(
                store=service.store_for(request._request),
                sheet_id=sheet_id,
                number=number,
                **data.validated_data,
            )
        except service.SheetNotFound:
            return not_found()
        except RulezzError as err:
            return refused(err)
        return Response(sheet_payload(sheet))

    @extend_schema(responses={200: None})
    def delete(self, request: Request, sheet_id: str, number: int) -> Response:
        try:
            sheet = service.round_delete(
                store=service.store_for(request._request), sheet_id=sheet_id, number=number
            )
        except service.SheetNotFound:
            return not_found()
        except RulezzError as err:
            return refused(err)
        return Response(sheet_payload(sheet))
