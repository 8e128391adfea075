"""Issue 12, item 6: hostile and odd mail gets a safe answer (or a logged refusal), never a
handle on the game."""

from __future__ import annotations

import io
import logging
from datetime import UTC, datetime
from email import message_from_bytes
from pathlib import Path

import pytest

from pbem.core.inbox import handle_mail
from pbem.core.messages import Envelope, MailOutcome, OutgoingMail
from pbem.core.outcomes import reply_subject
from pbem.mail.compose import compose
from pbem.mail.envelope import parse_mail
from pbem.mail.intake import Intake
from pbem.mail.logs import configure_logging
from pbem.mail.outbox import Outbox
from pbem.mail.settings import load_settings
from pbem.mail.sources import IncomingMail
from tests.mail.fakes import player_mail
from tests.mail.test_intake_defects import minigame_registered, mail, receipt_text, service  # noqa: F401


def test_wrong_token_and_wrong_address_get_the_same_refusal() -> None:
    svc = service()
    wrong_token = handle_mail(svc, parse_mail(mail("SIGNON ann g guess\nBID 3\nSIGNOFF\n")))
    wrong_address = handle_mail(svc, parse_mail(
        mail("SIGNON ann g ann-tok\nBID 3\nSIGNOFF\n", message_id="<other@example.org>")
        .replace(b"From: Ann Example <ann@example.org>", b"From: Mallory <mallory@example.net>")))
    assert receipt_text(wrong_token) == receipt_text(wrong_address)
    assert "wrong token or wrong address for ann" in receipt_text(wrong_token)


def refuse_all(envelope: Envelope) -> MailOutcome:
    return MailOutcome(replies=(OutgoingMail(key=f"refusal:{envelope.message_id}", to=envelope.sender,
                                             subject="Re: x", text="refused\n"),))


def test_the_refusal_limit_follows_the_claimed_player_not_only_the_address(tmp_path: Path) -> None:
    settings = load_settings(tmp_path, {"PBEM_FROM": "gm@pbem.test", "PBEM_FAILURE_LIMIT": "3"})
    intake = Intake(settings, refuse_all, Outbox(settings.state_path), clock=lambda: 1000.0)
    for n in range(8):  # a token guesser changing address each time
        body = f"SIGNON fra ratio-demo guess{n}\nFRA I HOLD\nSIGNOFF\n"
        intake.process(IncomingMail(f"maildir:{n}", player_mail(n, sender=f"guess{n}@example.net", body=body), n))
    assert sum(m.key.startswith("refusal:") for m in intake.outbox.due(1e12)) == 3


def test_a_receipt_of_junk_is_capped() -> None:
    svc = service()
    junk = "\n".join(f"junk line {n} qwertyuiop" for n in range(1500))
    outcome = handle_mail(svc, parse_mail(mail(f"SIGNON ann g ann-tok\n{junk}\nBID 3\nSIGNOFF\n")))
    receipt = next(m for m in outcome.replies if m.key.startswith("receipt"))
    assert "1401 more lines not echoed" in receipt.text and "1401 more lines not echoed" in (receipt.html or "")
    assert len(receipt.text) + len(receipt.html or "") < 120_000
    assert "junk line 1499" not in receipt.text


def deep_mail(depth: int) -> bytes:
    head = ("From: Deep <deep@example.org>\r\nTo: gm@pbem.test\r\nSubject: deep\r\n"
            "Message-ID: <deep@example.org>\r\nMIME-Version: 1.0\r\n")
    opening = "".join(f'Content-Type: multipart/mixed; boundary="b{i}"\r\n\r\n--b{i}\r\n' for i in range(depth))
    closing = "".join(f"--b{i}--\r\n" for i in reversed(range(depth)))
    return (head + opening + "Content-Type: text/plain\r\n\r\nSIGNON ann g ann-tok\r\nBID 3\r\n" + closing).encode()


def test_a_multipart_nested_a_thousand_deep_still_names_its_sender_and_is_answered() -> None:
    envelope = parse_mail(deep_mail(1000))
    assert (envelope.sender, envelope.message_id, envelope.subject) == ("deep@example.org", "<deep@example.org>",
                                                                        "deep")
    outcome = handle_mail(service(), envelope)
    assert [m.to for m in outcome.replies] == ["deep@example.org"]


def test_control_characters_never_reach_outgoing_headers_or_logs(caplog: pytest.LogCaptureFixture) -> None:
    raw = (b"From: =?utf-8?q?Eve=00=0D=0ABcc=3A_all=40x?= <eve@example.org>\r\nTo: gm@pbem.test\r\n"
           b"Subject: orders\x00\x1b[31m =?utf-8?q?=0D=0ABcc=3A_victim=40example.org?=\r\n"
           b"Message-ID: <id\x00x@example.org>\r\n\r\nSIGNON ann g ann-tok\r\n")
    envelope = parse_mail(raw)
    assert envelope.sender == "eve@example.org"  # the encoded display name does not decode into an address
    assert all(c.isprintable() for field in (envelope.sender, envelope.subject, envelope.message_id) for c in field)
    reply = OutgoingMail(key="refusal:x", to=envelope.sender, subject=reply_subject(envelope.subject),
                         text="refused\n", in_reply_to=None)
    sent = compose(reply, from_address="gm@pbem.test", date=datetime(2026, 5, 4, tzinfo=UTC))
    headers = sent.split(b"\n\n", 1)[0]
    assert b"\x00" not in headers and b"\x1b" not in headers and b"\r" not in headers
    assert [line.split(b":")[0] for line in headers.split(b"\n") if not line.startswith((b" ", b"\t"))] == [
        b"From", b"To", b"Subject", b"Date", b"Message-ID", b"Auto-Submitted", b"X-Pbem-Key", b"Content-Type",
        b"Content-Transfer-Encoding", b"MIME-Version"]
    assert message_from_bytes(sent)["Subject"].startswith("Re: orders")
    stream = io.StringIO()
    configure_logging()
    handler = logging.getLogger("pbem").handlers[0]
    handler.stream = stream  # type: ignore[attr-defined]
    from pbem.mail.logs import log_event

    log_event(logging.getLogger("pbem.mail.intake"), "mail.handled", sender="a\x00b\r\nevent=forged")
    line = stream.getvalue()
    assert line.count("\n") == 1 and "\x00" not in line and "\r" not in line


def test_press_to_a_power_nobody_holds_is_not_reported_as_relayed() -> None:
    svc = service()
    outcome = handle_mail(svc, parse_mail(mail("SIGNON ann g ann-tok\nPRESS TO Atlantis\nhello\nENDPRESS\nSIGNOFF\n")))
    text = receipt_text(outcome)
    assert "press to Atlantis not sent: no player holds Atlantis" in text and "relayed" not in text
    assert not [e for e in svc.loader.campaign_events("g") if type(e).__name__ == "PressRelayed"]


@pytest.mark.parametrize("subject, answer", [
    ("Re: [g] orders refused", "Re: [g] orders refused"),
    ("RE: Re: AW: orders", "Re: orders"),
    ("Re[2]: orders", "Re: orders"),
    ("", "Re: your orders"),
    ("Fwd: Re: orders", "Re: orders"),
])
def test_subjects_do_not_grow_re_re(subject: str, answer: str) -> None:
    assert reply_subject(subject) == answer


def test_a_refusal_to_a_reply_does_not_say_re_twice() -> None:
    outcome = handle_mail(service(), parse_mail(mail("no orders here\n")))
    assert [m.subject for m in outcome.replies] == ["Re: [g] bidding report"]
