"""The GM's powers as a GM uses them: the `pbem gm` commands on a Ratio Regis campaign in
a real home, and GM commands mailed into a Maildir and read by the mail daemon."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from email.message import EmailMessage
from functools import partial
from pathlib import Path

import pytest

from tests.test_cli import DEMO, SCENARIO, pbem

GM_PLAYERS = (DEMO / "players.toml").read_text() + """
[[player]]
id = "gm"
name = "The Judge"
address = "judge@example.org"
token = "gavel"
role = "gm"
"""


@pytest.fixture
def home(tmp_path: Path) -> Path:
    players = tmp_path / "players.toml"
    players.write_text(GM_PLAYERS)
    home = tmp_path / "home"
    pbem("new", "c1", "--ruleset", "ratio-regis", "--scenario", str(SCENARIO), "--players", str(players),
         home=home)
    for path in sorted(DEMO.glob("00[1-3]-*.txt")):  # the three sealed bids
        _submit(home, path)
    return home


def _submit(home: Path, path: Path) -> None:
    text = path.read_text().replace(" ratio-demo ", " c1 ")
    copy = home.parent / path.name
    copy.write_text(text)
    pbem("submit", "c1", str(copy), home=home)


def status(home: Path) -> dict:
    return json.loads(pbem("status", "c1", "--json", home=home).stdout)


def test_every_gm_command(home: Path, tmp_path: Path):
    assert status(home)["steps_resolved"] >= 1
    pbem("gm", "pause", "c1", "--reason", "map dispute", home=home)
    assert "paused" in pbem("gm", "pause", "c1", "--reason", "again", home=home, check=False).stderr
    assert "PAUSED by the GM since" in pbem("status", "c1", home=home).stdout  # issue 25.12: the pause is told
    assert (status(home)["paused"], status(home)["paused_reason"]) == (True, "map dispute")
    assert ", PAUSED" in pbem("list", home=home).stdout
    pbem("gm", "resume", "c1", "--reason", "settled", home=home)
    assert not status(home)["paused"] and "PAUSED" not in pbem("list", home=home).stdout
    deadline = status(home)["pending"][0]["deadline"]
    pbem("gm", "extend", "c1", "24", "--reason", "holidays", home=home)
    assert status(home)["pending"][0]["deadline"] != deadline
    rulings = pbem("gm", "rulings", "c1", home=home).stdout
    assert "vp" in rulings and "unrest" in rulings
    pbem("gm", "ruling", "c1", "vp", "player=p2", "delta=2", "--reason", "lost mail", home=home)
    bad = pbem("gm", "ruling", "c1", "vp", "player=zed", "delta=2", "--reason", "typo", home=home, check=False)
    assert bad.returncode == 2 and "unknown player" in bad.stderr
    replaced = pbem("gm", "replace", "c1", "p3", "new@example.org", "--name", "Walsingham", "--reason", "p3 left",
                    home=home).stdout
    assert "SIGNON p3 c1" in replaced
    assert "SIGNON olga c1" in pbem("gm", "observer", "c1", "olga", "olga@example.org", home=home).stdout
    before = status(home)["steps_resolved"]
    pbem("gm", "process", "c1", "--reason", "the group choice is overdue", home=home)
    assert status(home)["steps_resolved"] > before
    steps = pbem("replay", "c1", home=home).stdout.split()
    first = steps[0]
    preview = pbem("gm", "reprocess", "c1", first, "--reason", "check", home=home).stdout
    assert "a preview: nothing changed" in preview
    listed = pbem("orders", "c1", home=home).stdout.splitlines()  # the log versions --replace names
    assert [line.split()[1:4] for line in listed[:3]] == [["p1", "setup/bids", "taken"], ["p2", "setup/bids", "taken"],
                                                         ["p3", "setup/bids", "taken"]]
    rollback = pbem("gm", "rollback", "c1", first, "--reason", "wrong group chosen", home=home).stdout
    assert "roll back to just after step" in rollback and "a preview: nothing changed" in rollback
    assert status(home)["steps_resolved"] > 1
    pbem("gm", "rollback", "c1", first, "--release", "--reason", "wrong group chosen", home=home)
    assert pbem("replay", "c1", home=home).stdout.split()[::6] == [first]  # only the kept step remains
    assert "steps verified" in pbem("verify", "c1", home=home).stdout
    explained = pbem("replay", "c1", "--explain", home=home).stdout
    assert "roll" in explained or "decision" in explained
    early = pbem("gm", "reveal", "c1", "--reason", "curious", home=home, check=False)
    assert early.returncode == 2 and "still being played" in early.stderr
    key = _vault_secret(home)  # what a reveal at the end would publish
    assert "all match" in pbem("dice", "verify", "c1", "--secret", key, home=home).stdout
    wrong = pbem("dice", "verify", "c1", "--secret", "00" * 32, home=home, check=False)
    assert wrong.returncode == 2 and "not the campaign's commitment" in wrong.stderr


def test_gm_commands_answer_bad_input_by_name(home: Path, tmp_path: Path):
    """Issue 25.11: what used to end in an internal error is answered in one line, and a
    negative `gm extend` is read as hours, as its help says, without `--`."""
    deadline = datetime.fromisoformat(status(home)["pending"][0]["deadline"])
    huge = pbem("gm", "extend", "c1", "100000000", "--reason", "typo", home=home, check=False)
    assert huge.returncode == 2 and "past the calendar" in huge.stderr
    pbem("gm", "extend", "c1", "-24", "--reason", "the players are all in", home=home)
    assert datetime.fromisoformat(status(home)["pending"][0]["deadline"]) == deadline - timedelta(hours=24)
    late = tmp_path / "late.txt"
    late.write_text("GROUP 1\n")
    stranger = pbem("gm", "reprocess", "c1", "start", "--add", f"p9={late}", "--reason", "late orders", home=home,
                    check=False)
    assert stranger.returncode == 2 and "'p9' is not a player of c1 (its players: p1, p2, p3, gm)" in stranger.stderr
    folder = pbem("submit", "c1", str(tmp_path), home=home, check=False)
    assert folder.returncode == 2 and f"{tmp_path}: Is a directory" in folder.stderr
    negative = pbem("gm", "dice", "c1", "combat", "-3", "--reason", "table", home=home, check=False)
    assert negative.returncode == 2 and "a combat die is 1 to 6 (§13.1.6), not -3" in negative.stderr


def _vault_secret(home: Path) -> str:
    from pbem.core.service import CampaignService
    from pbem.core.store import open_store

    service = CampaignService(open_store(home))
    secret = service.loader.secret("c1").hex()
    service.store.close()
    return secret


def test_gm_commands_by_mail_through_the_daemon(home: Path):
    from pbem.app import build_service
    from pbem.core.inbox import handle_mail
    from pbem.mail.daemon import run
    from pbem.mail.maildir import ensure_maildir
    from pbem.mail.settings import load_settings

    inbox, outbox = ensure_maildir(home / "inbox"), home / "outbox"
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = "judge@example.org", "pbem@example.org", "gm"
    message["Message-ID"] = "<gm-1@example.org>"
    message.set_content("SIGNON gm c1 gavel\nGM PAUSE the map is being checked\nGM EXTEND 12 courtesy\nSIGNOFF\n")
    (inbox / "new" / "0001.gm").write_bytes(bytes(message))
    settings = load_settings(home, env={"PBEM_MAILDIR": str(inbox), "PBEM_OUTBOX_MAILDIR": str(outbox),
                                        "PBEM_FROM": "pbem@example.org"})
    service = build_service(home, from_address="pbem@example.org")
    run(settings, partial(handle_mail, service), once=True)
    assert status(home)["pending"]  # still waiting, but paused:
    from pbem.core.service import CampaignService
    from pbem.core.store import open_store

    check = CampaignService(open_store(home))
    assert check.projection("c1").data.paused
    sent = [p.read_text(errors="replace") for p in (outbox / "new").iterdir()]
    assert any("GM commands" in text and "done: paused" in text for text in sent)
    assert sum("judge@example.org" not in text.split("\n\n")[0] and "paused" in text for text in sent) >= 3


def test_a_new_player_or_observer_needs_a_mail_address(home: Path):
    from tests.test_cli import assert_clear_error

    for command in (["gm", "replace", "c1", "p1", "not-an-address", "--reason", "new player"],
                    ["gm", "replace", "c1", "p1", "Anne <anne@example.org>", "--reason", "new player"],
                    ["gm", "observer", "c1", "press", "a b@example.org"]):
        assert_clear_error(pbem(*command, home=home, check=False), "is not a mail address")
    from pbem.app import build_service

    assert build_service(home).projection("c1").data.players["p1"].address == "anne@example.org"
    pbem("gm", "replace", "c1", "p1", "Claire@Example.org", "--reason", "new player", home=home)
    assert build_service(home).projection("c1").data.players["p1"].address == "claire@example.org"
