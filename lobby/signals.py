"""What the lobby tells the apps above it, so that it imports none of them."""

from __future__ import annotations

from django.dispatch import Signal

# A player joined the "Play now" queue (in the transaction that queues them); receivers get
# `user_id`. An arena pauses them: a player waits for one kind of game at a time.
queue_joined = Signal()
