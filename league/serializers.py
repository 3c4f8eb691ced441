"""DRF serializers of the league API (read shapes only)."""

from __future__ import annotations

from rest_framework import serializers

from .models import LeaguePoint


class LeagueWeekSerializer(serializers.Serializer):
    key = serializers.CharField(source="week.key")
    start = serializers.DateTimeField(source="week.start")
    end = serializers.DateTimeField(source="week.end")
    current = serializers.BooleanField()
    frozen = serializers.BooleanField()
    paid = serializers.BooleanField()


class StandingEntrySerializer(serializers.Serializer):
    position = serializers.IntegerField()
    user_id = serializers.IntegerField()
    username = serializers.CharField()
    points = serializers.IntegerField()
    wins = serializers.IntegerField()
    games = serializers.IntegerField()
    reached_at = serializers.DateTimeField()
    is_me = serializers.SerializerMethodField()

    def get_is_me(self, entry: object) -> bool:
        return getattr(entry, "user_id", None) == self.context.get("me")


class LeaguePrizeSerializer(serializers.Serializer):
    place = serializers.IntegerField()
    user_id = serializers.IntegerField()
    username = serializers.CharField(source="user.username")
    points = serializers.IntegerField()
    amount = serializers.IntegerField()
    paid = serializers.SerializerMethodField()

    def get_paid(self, prize: object) -> bool:
        return getattr(prize, "transfer_id", None) is not None


class LeagueStandingsSerializer(serializers.Serializer):
    """The standings page: the week, the scope, one page of entries, the caller's own line."""

    week = LeagueWeekSerializer()
    game = serializers.CharField(allow_null=True)
    frozen = serializers.BooleanField()
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = StandingEntrySerializer(many=True)
    me = StandingEntrySerializer(allow_null=True)
    prizes = LeaguePrizeSerializer(many=True)


class LeaguePointSerializer(serializers.ModelSerializer):
    """One of the caller's point rows, with its provenance (table, game result)."""

    week = serializers.CharField(source="week.key")

    class Meta:
        model = LeaguePoint
        fields = [
            "id",
            "week",
            "kind",
            "game",
            "table",
            "game_result",
            "place",
            "players",
            "points",
            "halved",
            "reason",
            "earned_at",
        ]
