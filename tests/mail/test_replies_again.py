"""The same mail again — after a crash between the campaign's commit and the outbox's, or
`pbem submit` of one file twice — gets exactly the replies the first time gave (issue 13):
the receipt with every section, the EXPLAIN answers, the GM's receipt and announcements.
Each restart is a new service on the same home, as `pbem run` after a kill."""

from __future__ import annotations

from pathlib import Path

from pbem.app import build_service
from pbem.core.inbox import handle_mail
from pbem.core.service import PlayerSpec
from pbem.mail.envelope import parse_mail
from tests.mail.campaign import PLAYERS, REPO
from pbem.core.datafile import load_data_file

GM_PLAYER = PlayerSpec(id="gm", address="gm-person@pbem.test", token="umpire", role="gm")


def mail(n: int, sender: str, body: str) -> bytes:
    return (f"From: <{sender}>\r\nTo: gm@pbem.test\r\nSubject: orders {n}\r\nMessage-ID: <again-{n}@pbem.test>\r\n"
            f"Content-Type: text/plain; charset=utf-8\r\n\r\n" + body.replace("\n", "\r\n")).encode()


def campaign(home: Path) -> None:
    service = build_service(home, from_address="gm@pbem.test")
    scenario = load_data_file(REPO / "examples" / "ratio-regis" / "scenario.toml")
    service.create("ratio-demo", "ratio-regis", scenario, [*PLAYERS, GM_PLAYER], secret=bytes(32),
                   settings={"press": "open"})


def answered(home: Path, raw: bytes) -> list[tuple[str, str, str, str]]:
    """The replies a fresh service (a restarted daemon) gives to `raw`."""
    outcome = handle_mail(build_service(home, from_address="gm@pbem.test"), parse_mail(raw))
    return [(m.key, m.to, m.subject, m.text) for m in outcome.replies]


PLAYER_MAIL = ("SIGNON fra ratio-demo s3cret\nBID 3\nPOLICY disband DO KEEP\n"
               "PRESS TO hug\nShall we share Flanders?\nENDPRESS\nEXPLAIN auction\nSIGNOFF\n")


def test_a_player_mail_again_gets_the_very_same_replies(tmp_path: Path) -> None:
    campaign(tmp_path)
    raw = mail(1, "fra@pbem.test", PLAYER_MAIL)
    first = answered(tmp_path, raw)
    keys = [key for key, *_ in first]
    assert any(k.startswith("explain:") for k in keys) and any(k.startswith("press:") for k in keys)
    receipt = next(text for key, _, _, text in first if key.startswith("receipt:"))
    assert "P1" in receipt  # the standing-policy section
    assert answered(tmp_path, raw) == first
    assert answered(tmp_path, raw) == first


def test_a_gm_mail_again_gets_its_receipt_and_announcements(tmp_path: Path) -> None:
    campaign(tmp_path)
    raw = mail(2, "gm-person@pbem.test", "SIGNON gm ratio-demo umpire\nGM PAUSE -- a holiday\nSIGNOFF\n")
    first = answered(tmp_path, raw)
    keys = [key for key, *_ in first]
    assert any(k.startswith("gm-receipt:") for k in keys)
    assert sum(k.startswith("gm:") for k in keys) == 3, "every player is told"
    assert answered(tmp_path, raw) == first
