from django.urls import path

from . import api

urlpatterns = [
    path("tables", api.TableListView.as_view(), name="api-tables"),
    path("tables/<int:table_id>", api.TableDetailView.as_view(), name="api-table"),
    path("tables/<int:table_id>/join", api.JoinView.as_view(), name="api-table-join"),
    path("tables/<int:table_id>/leave", api.LeaveView.as_view(), name="api-table-leave"),
    path("tables/<int:table_id>/close", api.CloseView.as_view(), name="api-table-close"),
    path("tables/<int:table_id>/rematch", api.RematchView.as_view(), name="api-table-rematch"),
    path("tables/<int:table_id>/start", api.StartView.as_view(), name="api-table-start"),
    path("tables/<int:table_id>/bots", api.BotsView.as_view(), name="api-table-bots"),
    path("tables/<int:table_id>/seats/<int:seat>", api.SeatView.as_view(), name="api-table-seat"),
    path("tables/<int:table_id>/mute", api.MuteView.as_view(), name="api-table-mute"),
    path("tables/<int:table_id>/chat", api.ChatView.as_view(), name="api-table-chat"),
    path("tables/<int:table_id>/invitations", api.InviteView.as_view(), name="api-table-invite"),
    path("tables/<int:table_id>/replay", api.ReplayView.as_view(), name="api-table-replay"),
    path("tables/<int:table_id>/verify", api.VerifyView.as_view(), name="api-table-verify"),
    path("rooms/<str:code>", api.RoomByCodeView.as_view(), name="api-room"),
    path("invitations", api.InvitationListView.as_view(), name="api-invitations"),
    path(
        "invitations/<int:invitation_id>/accept",
        api.InvitationAnswerView.as_view(answer="accept"),
        name="api-invitation-accept",
    ),
    path(
        "invitations/<int:invitation_id>/decline",
        api.InvitationAnswerView.as_view(answer="decline"),
        name="api-invitation-decline",
    ),
]
