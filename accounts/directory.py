"""Who can be invited: usernames that start with what the host typed (the room's invite box).

Usernames are public on Tapete (league standings, public profiles), so suggesting them leaks
nothing; the match uses ``name_key``, so case and other scripts' look-alikes never matter.
"""

from __future__ import annotations

import re

from .models import User
from .names import name_key

#: fewer letters than this would list half the site
MIN_PREFIX = 2
LIMIT = 8


def usernames_starting_with(
    prefix: object, *, exclude_user_id: int | None = None, limit: int = LIMIT
) -> list[str]:
    """Up to ``limit`` active usernames whose key starts with ``prefix``'s, alphabetically."""
    if not isinstance(prefix, str) or len(prefix) > 40:
        return []
    key = name_key(prefix.strip())
    if len(key) < MIN_PREFIX or not re.fullmatch(r"\w+", key):  # a username is letters, digits, _
        return []
    users = User.objects.filter(username_key__startswith=key, is_active=True)
    if exclude_user_id is not None:
        users = users.exclude(pk=exclude_user_id)
    return list(users.order_by("username_key").values_list("username", flat=True)[:limit])
