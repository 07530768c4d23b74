"""Queues: players wait with a ticket, and pairing waves, pure functions of the queue's
recorded state and the wave's recorded time, bring them together in battles."""
