"""Invitations as the lobby socket carries them, and their end when a room stops waiting.

``invitation_dict`` is the one shape of an invitation on the wire (the lobby socket, the API);
``expire_invitations`` runs when a room starts or closes (``core.deal``, ``core.close``): its
pending invitations expire and each invitee's open pages hear it and drop them (PF-14, issue 25
item 5). The services write invitations (``services.invite``, ``respond_invitation``).
"""

from __future__ import annotations

from typing import Any

from cardgames.catalogue import CATALOGUE

from . import broadcast
from .models import Invitation, Table


def invitation_dict(invitation: Invitation) -> dict[str, Any]:
    table = invitation.table
    return {
        "id": invitation.pk,
        "status": invitation.status,
        "table": table.pk,
        "code": table.code,
        "game": table.game,
        "game_name": CATALOGUE[table.game].name if table.game in CATALOGUE else table.game,
        "from": invitation.sender.username,
        "to": invitation.recipient.username,
        "expires_at": int(invitation.expires_at.timestamp() * 1000),
    }


def expire_invitations(table: Table) -> None:
    """The room stopped waiting (started or closed; its row locked): its pending invitations
    expire, and each invitee's lobby group is told so their pages drop them."""
    pending = list(
        table.invitations.filter(status=Invitation.Status.PENDING).select_related("sender", "recipient")
    )
    if not pending:
        return
    Invitation.objects.filter(pk__in=[i.pk for i in pending]).update(status=Invitation.Status.EXPIRED)
    for invitation in pending:
        invitation.status = Invitation.Status.EXPIRED
        broadcast.to_user(
            invitation.recipient_id, {"type": "invitation", "invitation": invitation_dict(invitation)}
        )
