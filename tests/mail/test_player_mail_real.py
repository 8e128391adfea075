"""Issue 25, players' mail, through the real daemon: a real Dovecot in, a real SMTP server out."""

from __future__ import annotations

from email import message_from_bytes, policy
from email.message import EmailMessage
from functools import partial
from pathlib import Path

import pytest

from pbem.core.inbox import handle_mail
from pbem.mail.daemon import run
from pbem.mail.localservers import Dovecot, SmtpCapture
from tests.mail.campaign import create_campaign
from tests.mail.mailbox import deliver, folder_uids
from tests.mail.test_imap_integration import settings_for

pytestmark = pytest.mark.dovecot

OUTLOOK_ID = ("<AM0PR01MB1234567890ABCDEF1234567890ABCDEF1234567890ABCDEF@"
              "AM0PR01MB1234.eurprd01.prod.exchangelabs.com>")


def test_an_answer_to_a_long_outlook_message_id_threads(tmp_path: Path, gm_mailbox: Dovecot,
                                                        smtp_capture: SmtpCapture) -> None:
    """Item 9: the id is longer than a header line; the answer names it as written, never as
    an RFC 2047 encoded word (which no client matches to the mail it answers)."""
    assert len(OUTLOOK_ID) > 78
    service = create_campaign(tmp_path)
    mail = ("From: Player <fra@pbem.test>\r\nTo: gm@pbem.test\r\nSubject: orders\r\n"
            f"Message-ID:\r\n {OUTLOOK_ID}\r\nReferences: <report-1@pbem.test>\r\n {OUTLOOK_ID.replace('AM0', 'BM0')}\r\n"
            "Content-Type: text/plain; charset=utf-8\r\n\r\n"
            "SIGNON fra ratio-demo s3cret\r\nFRA I BUILD TROOP Q1 AT Paris\r\nSIGNOFF\r\n").encode()
    deliver(gm_mailbox, mail)
    run(settings_for(tmp_path, gm_mailbox, smtp_capture), partial(handle_mail, service), once=True)
    (receipt,) = smtp_capture.wait_for(1, timeout=5)
    head = receipt.raw.split(b"\r\n\r\n", 1)[0].decode()
    assert "=?" not in head
    assert f"In-Reply-To: {OUTLOOK_ID}\r\n" in head
    parsed = message_from_bytes(receipt.raw, policy=policy.default)
    assert parsed["In-Reply-To"] == OUTLOOK_ID and OUTLOOK_ID in parsed["References"].split()
    assert all(len(line) <= 998 for line in head.split("\r\n"))


def json_mail(n: int, attachment: bytes) -> bytes:
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = "fra@pbem.test", "gm@pbem.test", f"orders {n}"
    message["Message-ID"] = f"<json-{n}@players.test>"
    message.set_content("SIGNON fra ratio-demo s3cret\n")
    message.add_attachment(attachment, maintype="application", subtype="json", filename="orders.json")
    return bytes(message)


def test_a_json_attachment_of_the_wrong_shape_is_answered_and_acknowledged(tmp_path: Path, gm_mailbox: Dovecot,
                                                                          smtp_capture: SmtpCapture) -> None:
    """Item 2: `{"press": 5}` jammed its mail (a TypeError, never acknowledged, never answered)."""
    service = create_campaign(tmp_path)
    deliver(gm_mailbox, json_mail(1, b'{"press": 5}'), json_mail(2, b'{"press": [{"to": ["HUG"], "text": "hi"}]}'))
    stats = run(settings_for(tmp_path, gm_mailbox, smtp_capture), partial(handle_mail, service), once=True)
    assert (stats.received, stats.sent) == (2, 2)
    assert folder_uids(gm_mailbox, "INBOX") == {}
    answers = {m.in_reply_to: message_from_bytes(m.raw, policy=policy.default) for m in smtp_capture.wait_for(2, timeout=5)}
    first, second = (" ".join(answers[f"<json-{n}@players.test>"].get_body(("plain",)).get_content().split())
                     for n in (1, 2))
    assert "press: Input should be a valid list" in first
    assert "press.0.to: Input should be a valid string" in second
    assert not [e for e in service.loader.campaign_events("ratio-demo") if type(e).__name__ == "PressRelayed"]
