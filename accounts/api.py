"""JSON API for accounts (/api/auth/…, /api/me): thin views over accounts.services.

Session auth with CSRF as Django expects: every unsafe request must carry the
CSRF token, anonymous log-in and sign-up included (log-in CSRF is a real attack).
GET /api/auth/csrf sets the cookie for a fresh client.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import logout
from django.core.exceptions import ValidationError
from django.middleware.csrf import get_token
from django.utils import translation
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from . import directory, services, web
from .authentication import CsrfSessionAuthentication
from .guests import TOO_MANY_GUESTS, current_guest, start_guest
from .models import User


class UserSerializer(serializers.ModelSerializer):
    class Meta:
        model = User
        fields = ["id", "username", "date_joined", "language"]


class CredentialsSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=40)
    password = serializers.CharField(max_length=256, trim_whitespace=False)


class SignupSerializer(CredentialsSerializer):
    language = serializers.ChoiceField(choices=["es", "en"], default="es")


class PasswordChangeSerializer(serializers.Serializer):
    old_password = serializers.CharField(max_length=256, trim_whitespace=False)
    new_password = serializers.CharField(max_length=256, trim_whitespace=False)


class GuestSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=40)


def _error(err: services.AccountError) -> Response:
    return Response({"detail": err.message, "code": err.code}, status=err.status)


def me_payload(request: Request) -> dict[str, Any]:
    if request.user.is_authenticated:
        return {"authenticated": True, "user": UserSerializer(request.user).data, "guest": None}
    guest = current_guest(request._request)
    return {"authenticated": False, "user": None, "guest": guest and {"id": guest.id, "name": guest.name}}


class AuthAPIView(APIView):
    authentication_classes = [CsrfSessionAuthentication]
    permission_classes = [AllowAny]


class CsrfView(AuthAPIView):
    @extend_schema(responses=inline_serializer("Csrf", {"csrfToken": serializers.CharField()}))
    def get(self, request: Request) -> Response:
        return Response({"csrfToken": get_token(request._request)})


class SignupView(AuthAPIView):
    @extend_schema(request=SignupSerializer, responses={201: UserSerializer})
    def post(self, request: Request) -> Response:
        data = SignupSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            user = web.sign_up(request._request, **data.validated_data)
        except services.AccountError as err:
            return _error(err)
        return Response(UserSerializer(user).data, status=status.HTTP_201_CREATED)


class LoginView(AuthAPIView):
    @extend_schema(request=CredentialsSerializer, responses={200: UserSerializer})
    def post(self, request: Request) -> Response:
        data = CredentialsSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            user = web.log_in(request._request, **data.validated_data)
        except services.AccountError as err:
            return _error(err)
        # the saved language, as the log-in page applies it (cookie read by LocaleMiddleware)
        translation.activate(user.language)
        response = Response(UserSerializer(user).data)
        web.set_language_cookie(response, user.language)
        return response


class LogoutView(AuthAPIView):
    @extend_schema(request=None, responses={204: None})
    def post(self, request: Request) -> Response:
        logout(request._request)
        return Response(status=status.HTTP_204_NO_CONTENT)


class PasswordChangeView(AuthAPIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=PasswordChangeSerializer, responses={204: None})
    def post(self, request: Request) -> Response:
        data = PasswordChangeSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            web.change_password(request._request, user=request.user, **data.validated_data)
        except services.AccountError as err:
            return _error(err)
        return Response(status=status.HTTP_204_NO_CONTENT)


class GuestView(AuthAPIView):
    @extend_schema(request=GuestSerializer, responses={201: None})
    def post(self, request: Request) -> Response:
        if request.user.is_authenticated:
            return Response(
                {"detail": "Ya has iniciado sesión.", "code": "already_authenticated"}, status=400
            )
        data = GuestSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            start_guest(request._request, name=data.validated_data["name"])
        except ValidationError as err:
            if err.code == TOO_MANY_GUESTS:
                return Response({"detail": err.messages[0], "code": err.code}, status=429)
            return Response({"detail": err.messages[0], "code": "invalid_name"}, status=400)
        return Response(me_payload(request), status=status.HTTP_201_CREATED)


class MeView(AuthAPIView):
    @extend_schema(
        responses=inline_serializer(
            "Me",
            {
                "authenticated": serializers.BooleanField(),
                "user": UserSerializer(allow_null=True),
                "guest": serializers.DictField(allow_null=True),
            },
        )
    )
    def get(self, request: Request) -> Response:
        return Response(me_payload(request))


class UserSearchView(APIView):
    """Usernames to invite: ``?q=`` of at least two letters, the asker left out (accounts.directory)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        parameters=[OpenApiParameter("q", str, description="the start of a username")],
        responses=inline_serializer(
            "UserSearch", {"results": serializers.ListField(child=serializers.CharField())}
        ),
    )
    def get(self, request: Request) -> Response:
        names = directory.usernames_starting_with(
            request.query_params.get("q", ""), exclude_user_id=request.user.pk
        )
        return Response({"results": names})
