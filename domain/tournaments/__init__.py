"""Tournaments: Swiss and single elimination, each pairing a set on the tournament's clock.
Pairings and standings are pure functions of the recorded results, so an audit re-derives
every round from the log."""
