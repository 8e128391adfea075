"""Issue 25 item 13: `pbem submit` takes a mail through the daemon's own intake, so it answers
a mail exactly as `pbem run` would. A real process on a real home, and the daemon beside it."""

from __future__ import annotations

import json
from email.message import EmailMessage
from pathlib import Path

import pytest

from pbem.mail.maildir import ensure_maildir
from tests.test_cli import DEMO, SCENARIO, assert_clear_error, pbem

TOKEN = "fleur-de-lys"  # p1 of the demo's players file, anne@example.org


@pytest.fixture
def home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    pbem("new", "c1", "--ruleset", "ratio-regis", "--scenario", str(SCENARIO), "--players",
         str(DEMO / "players.toml"), home=home)
    (home / "pbem.toml").write_text('[mail]\nfrom = "gm@example.org"\nmax_mail_bytes = 4000\n')
    return home


def player_mail(body: str, *, number: int = 1, **headers: str) -> bytes:
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = "anne@example.org", "gm@example.org", "orders"
    message["Message-ID"] = f"<submit-{number}@example.org>"
    for name, value in headers.items():
        message[name.replace("_", "-")] = value
    message.set_content(body)
    return bytes(message)


def log_version(home: Path) -> int:
    return json.loads(pbem("status", "c1", "--json", home=home).stdout)["log_version"]


def test_an_auto_reply_is_not_taken_as_orders(home: Path, tmp_path: Path) -> None:
    before = log_version(home)
    path = tmp_path / "away.eml"
    path.write_bytes(player_mail(f"SIGNON p1 c1 {TOKEN}\nBID 3\nSIGNOFF\n", Auto_Submitted="auto-replied"))
    assert_clear_error(pbem("submit", "c1", str(path), home=home, check=False), "auto-submitted mail is never answered")
    assert log_version(home) == before


def test_an_oversize_mail_gets_the_daemons_answer(home: Path, tmp_path: Path) -> None:
    path = tmp_path / "big.eml"
    path.write_bytes(player_mail(f"SIGNON p1 c1 {TOKEN}\nBID 3\nSIGNOFF\n" + "x" * 5000 + "\n"))
    result = pbem("submit", "c1", str(path), home=home)
    assert "Your mail was not read: it is" in result.stdout and "accepts at most 3 kB" in result.stdout
    assert "SIGNON" not in result.stdout
    # the daemon, handed the same mail, answers alike (and it was already answered: nothing new is queued)
    inbox = ensure_maildir(home / "mail" / "inbox")
    (inbox / "new" / "big").write_bytes(path.read_bytes())
    pbem("run", "--once", home=home)
    sent = [p.read_bytes() for p in (home / "mail" / "outbox").rglob("*") if p.is_file()]
    assert sum(b"Your mail was not read" in mail for mail in sent) == 1


def test_a_mail_whose_signon_is_in_its_json_attachment_is_read(home: Path, tmp_path: Path) -> None:
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = "anne@example.org", "gm@example.org", "orders"
    message["Message-ID"] = "<submit-json@example.org>"
    message.set_content("Orders attached.\n")
    message.add_attachment(json.dumps({"signon": f"p1 c1 {TOKEN}", "orders": ["BID 3"]}).encode(),
                           maintype="application", subtype="json", filename="orders.json")
    path = tmp_path / "json.eml"
    path.write_bytes(bytes(message))
    before = log_version(home)
    result = pbem("submit", "c1", str(path), home=home)
    assert "orders for campaign c1 were received" in " ".join(result.stdout.split())
    assert "BID 3" in result.stdout and log_version(home) > before
    again = pbem("submit", "c1", str(path), home=home)
    assert again.stdout.startswith("this mail was already received")


def test_a_plain_order_file_is_the_mail_its_player_would_send(home: Path, tmp_path: Path) -> None:
    path = tmp_path / "orders.txt"
    path.write_text(f"SIGNON p1 c1 {TOKEN}\nBID 3\nSIGNOFF\n\nUn abrazo\nAnne\n")
    result = pbem("submit", "c1", str(path), home=home)
    assert "BID 3" in result.stdout and "outside SIGNON" not in result.stdout
    assert_clear_error(pbem("submit", "c2", str(path), home=home, check=False), "names campaign 'c1', not 'c2'")
