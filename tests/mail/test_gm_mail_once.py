"""A GM's mail of several command lines, handled again after a kill between two of them (or
submitted twice), never does a line again (issue 13): each line is recorded done with its
own facts, and the mail handled again skips the lines already done and answers with their
stored replies, so the GM's receipt and the players' announcements are those of an
uninterrupted run. Each handling is a new service on the same home, as `pbem run` after a kill."""

from __future__ import annotations

from datetime import datetime, timezone
from itertools import count
from pathlib import Path

import pytest

from pbem.app import build_service
from pbem.core.campaign import Campaign
from pbem.core.datafile import load_data_file
from pbem.core import gm
from pbem.core.gm import GameMaster
from pbem.core.inbox import handle_mail
from pbem.mail.envelope import parse_mail
from tests.mail.campaign import PLAYERS, REPO
from tests.mail.test_replies_again import GM_PLAYER, mail

NOW = datetime(2026, 3, 1, 12, tzinfo=timezone.utc)
GM_MAIL = ("SIGNON gm ratio-demo umpire\nGM EXTEND 24 the mail server was down\n"
           "GM OBSERVER kibitzer kib@pbem.test\nGM PAUSE a holiday\nSIGNOFF\n")


def service(home: Path):
    return build_service(home, from_address="gm@pbem.test", clock=lambda: NOW)


def campaign(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A new campaign; the tokens a GM command mints from now on are token-1, token-2, …"""
    tokens = count(1)
    monkeypatch.setattr(gm.secrets_module, "token_urlsafe", lambda _: f"token-{next(tokens)}")
    service = build_service(home, from_address="gm@pbem.test", clock=lambda: NOW)
    scenario = load_data_file(REPO / "examples" / "ratio-regis" / "scenario.toml")
    service.create("ratio-demo", "ratio-regis", scenario, [*PLAYERS, GM_PLAYER], secret=bytes(32),
                   settings={"press": "open", "deadline_hours": 48})


def handled(home: Path, raw: bytes) -> list[tuple[str, str, str, str]]:
    outcome = handle_mail(service(home), parse_mail(raw))
    return [(m.key, m.to, m.subject, m.text) for m in outcome.replies]


def facts(home: Path) -> list:
    return [e for e in service(home).loader.campaign_events("ratio-demo")
            if isinstance(e, (Campaign.DeadlineChanged, Campaign.PlayerJoined, Campaign.Paused))]


def killed_before_the_last_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """The daemon dies once, after the first two lines' sessions committed, before the third runs."""
    original = GameMaster.pause
    calls = []

    def pause(self, *args, **kwargs):
        calls.append(1)
        if len(calls) == 1:
            raise KeyboardInterrupt("killed")
        return original(self, *args, **kwargs)
    monkeypatch.setattr(GameMaster, "pause", pause)


def test_a_gm_mail_handled_again_after_a_kill_does_each_line_once(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    raw = mail(7, "gm-person@pbem.test", GM_MAIL)
    campaign(tmp_path / "calm", monkeypatch)
    uninterrupted = handled(tmp_path / "calm", raw)
    campaign(tmp_path / "killed", monkeypatch)
    killed_before_the_last_line(monkeypatch)
    with pytest.raises(KeyboardInterrupt):
        handled(tmp_path / "killed", raw)
    assert len(facts(tmp_path / "killed")) == len(PLAYERS) + 3  # the players, the GM, the extension, the observer
    assert handled(tmp_path / "killed", raw) == uninterrupted
    assert handled(tmp_path / "killed", raw) == uninterrupted
    assert ([type(e).__name__ for e in facts(tmp_path / "killed")]
            == [type(e).__name__ for e in facts(tmp_path / "calm")])
    extended = [e for e in facts(tmp_path / "killed") if isinstance(e, Campaign.DeadlineChanged)]
    assert len(extended) == 1, "the deadline is extended once"
    receipt = next(text for key, _, _, text in uninterrupted if key.startswith("gm-receipt:"))
    assert "kibitzer signs on with token token-1" in receipt, "no new token minted on the redo"
    assert receipt.count("done:") == 3
    assert sum(key.startswith("gm:") for key, *_ in uninterrupted) > 6, "each line's announcements"


def test_a_gm_mail_submitted_twice_does_nothing_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    raw = mail(8, "gm-person@pbem.test", GM_MAIL)
    campaign(tmp_path, monkeypatch)
    first = handled(tmp_path, raw)
    before = facts(tmp_path)
    assert handled(tmp_path, raw) == first
    assert len(facts(tmp_path)) == len(before)
