"""Storm guards, the size limit, refusal rate-limiting, and the Maildir path end to end."""

from __future__ import annotations

from pathlib import Path

from pbem.core.messages import Envelope, MailOutcome
from pbem.mail.daemon import run
from pbem.mail.intake import Intake
from pbem.mail.maildir import ensure_maildir
from pbem.mail.outbox import Outbox
from pbem.mail.settings import load_settings
from pbem.mail.sources import IncomingMail
from tests.mail.fakes import RecordingHandler, player_mail

CORPUS = Path(__file__).parent / "corpus"


def intake(tmp_path: Path, handler, **env: str) -> Intake:  # type: ignore[no-untyped-def]
    settings = load_settings(tmp_path, {"PBEM_FROM": "gm@pbem.test", **env})
    return Intake(settings, handler, Outbox(settings.state_path), clock=lambda: 1000.0)


def sent_keys(item: Intake) -> list[str]:
    return [m.key for m in item.outbox.due(1e12)]


def test_auto_mail_is_recorded_as_ignored_never_handed_on(tmp_path: Path) -> None:
    handler = RecordingHandler(tmp_path / "facts.sqlite3")
    item = intake(tmp_path, handler)
    for n, name in enumerate(["bounce_dsn_postfix", "auto_reply_out_of_office", "vacation_precedence_bulk"]):
        assert item.process(IncomingMail(f"maildir:{n}", (CORPUS / f"{name}.eml").read_bytes(), n))
    own = player_mail(9, sender="gm@pbem.test")
    assert item.process(IncomingMail("maildir:own", own, "own"))
    assert handler.facts() == [] and sent_keys(item) == []
    assert item.outbox.is_processed("maildir:own")


def test_oversize_mail_gets_one_short_refusal(tmp_path: Path) -> None:
    handler = RecordingHandler(tmp_path / "facts.sqlite3")
    item = intake(tmp_path, handler, PBEM_MAX_MAIL_BYTES="2000")
    big = player_mail(1, body="SIGNON fra ratio-demo s3cret\n" + "x" * 3000 + "\n")
    assert item.process(IncomingMail("maildir:big", big, "big"))
    assert item.process(IncomingMail("maildir:big-again", big, "big2"))  # the same mail, another copy
    [key] = sent_keys(item)
    assert key.startswith("mail-refused:size:") and handler.facts() == []
    [queued] = item.outbox.due(1e12)
    assert b"accepts at most" in queued.message and queued.recipient == "fra@pbem.test"


def test_refusals_to_one_address_are_rate_limited(tmp_path: Path) -> None:
    handler = RecordingHandler(tmp_path / "facts.sqlite3")
    item = intake(tmp_path, handler, PBEM_FAILURE_LIMIT="3")
    for n in range(6):
        item.process(IncomingMail(f"maildir:{n}", player_mail(n, body="no orders\n"), n))
    item.process(IncomingMail("maildir:ok", player_mail(99), 99))
    keys = sent_keys(item)
    assert sum(k.startswith("refusal:") for k in keys) == 3  # then silence for this address
    assert sum(k.startswith("receipt:") for k in keys) == 1  # good orders are still answered
    assert len(handler.facts()) == 7  # every mail is still recorded


def test_handler_error_leaves_the_mail_unacknowledged(tmp_path: Path) -> None:
    def broken(envelope: Envelope) -> MailOutcome:
        raise RuntimeError("bug in the service")

    item = intake(tmp_path, broken)
    assert item.process(IncomingMail("maildir:1", player_mail(1), 1)) is False
    assert not item.outbox.is_processed("maildir:1")


def test_maildir_source_and_sink_end_to_end(tmp_path: Path) -> None:
    inbox = ensure_maildir(tmp_path / "mail" / "inbox")
    for n in range(3):
        (inbox / "new" / f"17000000{n}.M1P1.host").write_bytes(player_mail(n))
    handler = RecordingHandler(tmp_path / "facts.sqlite3")
    settings = load_settings(tmp_path, {"PBEM_FROM": "gm@pbem.test"})
    stats = run(settings, handler, once=True)
    assert (stats.received, stats.sent) == (3, 3)
    assert sorted(p.name for p in (inbox / "cur").iterdir()) == [f"17000000{n}.M1P1.host:2,S" for n in range(3)]
    assert len(list((tmp_path / "mail" / "outbox" / "new").iterdir())) == 3
    # Put a handled mail back (a crash before the move): nothing is handled or sent twice.
    (inbox / "cur" / "170000000.M1P1.host:2,S").rename(inbox / "new" / "170000000.M1P1.host")
    assert run(settings, handler, once=True).sent == 0
    assert len(handler.facts()) == 3 and len(list((tmp_path / "mail" / "outbox" / "new").iterdir())) == 3


def test_on_tick_mail_is_queued_and_sent(tmp_path: Path) -> None:
    from pbem.core.messages import OutgoingMail

    ticks = []

    def on_tick(now):  # type: ignore[no-untyped-def]
        ticks.append(now)
        return [OutgoingMail(key="report:demo:7:fra", to="fra@pbem.test", subject="Turn 7", text="report\n")]

    settings = load_settings(tmp_path, {"PBEM_FROM": "gm@pbem.test"})
    assert run(settings, RecordingHandler(tmp_path / "f.sqlite3"), once=True, on_tick=on_tick).sent == 1
    assert run(settings, RecordingHandler(tmp_path / "f.sqlite3"), once=True, on_tick=on_tick).sent == 0
    assert len(ticks) == 2 and ticks[0].tzinfo is not None
