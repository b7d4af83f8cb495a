"""What fair play tells the apps above it, so that it imports none of them."""

from __future__ import annotations

from django.dispatch import Signal

# A moderator marked or closed an account: the lobby takes it out of the queue and the
# arenas out of their standings. Sent inside the transaction that records it; receivers
# get `user_id`.
account_restricted = Signal()
