"""Acceptance: always-call loses to the equity-threshold bot, decisively, in a duplicate match."""

from __future__ import annotations

from checkraise.arena.match import play_match


def test_equity_bot_beats_always_call_decisively() -> None:
    result = play_match("equity", "call", hands=200, seed=2024, workers=1)
    e = result.mbb(1)
    assert e.high < 0, f"always-call: {e}"
    assert result.mbb(0).low > 0
