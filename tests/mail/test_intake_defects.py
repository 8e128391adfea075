"""Issue 12: mail as players really send it, read by the campaign service exactly once.

Each mail here is shaped like what a real client and a real relay produce (trace headers
prepended by each hop, a greeting above SIGNON, two blocks in one mail, hostile input).
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from pbem.core import ruleset as rulesets
from pbem.core.campaign import InboundMail
from pbem.core.mailidentity import content_digest, legacy_digest
from pbem.core.inbox import handle_mail, mail_identity
from pbem.core.messages import Envelope
from pbem.core.service import CampaignService, PlayerSpec
from pbem.core.store import open_store
from pbem.mail.envelope import parse_mail
from pbem.reports.renderer import MailRenderer
from tests.support.minigame import MiniGame

_real_load = rulesets.load


@pytest.fixture(autouse=True)
def minigame_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rulesets, "load", lambda name: MiniGame() if name == "minigame" else _real_load(name))


PLAYERS = [PlayerSpec(id="ann", address="ann@example.org", token="ann-tok"),
           PlayerSpec(id="bob", address="bob@example.org", token="bob-tok")]

HEADERS = (
    "Return-Path: <ann@example.org>\r\n"
    "Received: from mail.example.org (mail.example.org [192.0.2.10])\r\n"
    "\tby mx.pbem.test (Postfix) with ESMTPS id 4Xy1Zq3kPz;\r\n"
    "\tMon,  4 May 2026 09:14:03 +0000 (UTC)\r\n"
    "DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxed; d=example.org; s=mail;\r\n"
    "\th=from:to:subject:date:message-id; bh=47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=;\r\n"
    "\tb=Vv9mF0x0o3v1Q==\r\n"
    "From: Ann Example <ann@example.org>\r\n"
    "To: gm@pbem.test\r\n"
    "Subject: Re: [g] bidding report\r\n"
    "Date: Mon, 4 May 2026 11:14:01 +0200\r\n"
    "{message_id}"
    "MIME-Version: 1.0\r\n"
    "Content-Type: text/plain; charset=UTF-8\r\n"
    "Content-Transfer-Encoding: 7bit\r\n"
    "\r\n"
)


def mail(body: str, *, message_id: str | None = "<CAJx7Q1-abc@mail.example.org>", trace: str = "") -> bytes:
    header = HEADERS.format(message_id=f"Message-ID: {message_id}\r\n" if message_id else "")
    return (trace + header + body.replace("\n", "\r\n")).encode()


SECOND_HOP = ("Received: from mx.pbem.test (localhost [127.0.0.1])\r\n"
              "\tby forward.pbem.test (Postfix) with ESMTP id 9AbC;\r\n\tMon,  4 May 2026 09:14:05 +0000 (UTC)\r\n"
              "X-Original-To: orders@pbem.test\r\nDelivered-To: gm@pbem.test\r\n")


def service() -> CampaignService:
    clock = lambda: datetime(2026, 5, 4, 9, tzinfo=timezone.utc)  # noqa: E731
    svc = CampaignService(open_store(env={"PERSISTENCE_MODULE": "eventsourcing.popo"}),
                          MailRenderer(from_address="gm@pbem.test"), clock=clock)
    svc.create("g", "minigame", {"rounds": 3}, PLAYERS, settings={"deadline_hours": 24}, secret=bytes(range(32)))
    return svc


def bids(svc: CampaignService) -> dict:
    return {key: value.value for key, value in svc.projection("g").data.inputs.items()}


def receipt_text(outcome) -> str:  # type: ignore[no-untyped-def]
    return "\n".join(m.text for m in outcome.replies if m.key.startswith(("receipt", "refusal")))


# 1. exactly once, whatever the relays add

def test_a_second_delivery_with_one_more_trace_header_is_the_same_mail() -> None:
    svc = service()
    first = handle_mail(svc, parse_mail(mail("SIGNON ann g ann-tok\nBID 3\nSIGNOFF\n")))
    newer = handle_mail(svc, parse_mail(mail("SIGNON ann g ann-tok\nBID 5\nSIGNOFF\n",
                                            message_id="<CAJx7Q1-def@mail.example.org>")))
    again = handle_mail(svc, parse_mail(mail("SIGNON ann g ann-tok\nBID 3\nSIGNOFF\n", trace=SECOND_HOP)))
    assert not first.duplicate and not newer.duplicate and again.duplicate
    assert list(bids(svc).values()) == [5]  # the old bid did not overwrite the newer one
    assert [m.key for m in again.replies] == [m.key for m in first.replies if m.key.startswith("receipt")]


def test_a_mail_without_message_id_keeps_its_identity_through_relays() -> None:
    raw = mail("SIGNON ann g ann-tok\nBID 2\nSIGNOFF\n", message_id=None)
    relayed = mail("SIGNON ann g ann-tok\nBID 2\nSIGNOFF\n", message_id=None, trace=SECOND_HOP)
    assert parse_mail(raw).message_id == parse_mail(relayed).message_id
    assert content_digest(raw) == content_digest(relayed)
    svc = service()
    handle_mail(svc, parse_mail(raw))
    assert handle_mail(svc, parse_mail(relayed)).duplicate


def test_the_identity_still_tells_different_mails_apart() -> None:
    assert content_digest(mail("SIGNON ann g ann-tok\nBID 2\n")) != content_digest(mail("SIGNON ann g ann-tok\nBID 3\n"))
    other_subject = mail("SIGNON ann g ann-tok\nBID 2\n").replace(b"Subject: Re:", b"Subject: Fwd:")
    assert content_digest(mail("SIGNON ann g ann-tok\nBID 2\n")) != content_digest(other_subject)


def test_a_mail_recorded_under_the_old_key_is_still_recognised() -> None:
    """Logs written before the content key name a mail by the digest of its raw bytes."""
    svc = service()
    raw = mail("SIGNON ann g ann-tok\nBID 4\nSIGNOFF\n")
    envelope = parse_mail(raw)
    old = InboundMail(message_id=envelope.message_id, digest=legacy_digest(raw), sender="ann@example.org",
                      source_key=None, raw=envelope.raw_compressed(), campaign=None, campaign_versions=[],
                      outcome="refused: recorded by an older pbem")
    assert old.id == InboundMail.create_id(envelope.message_id, legacy_digest(raw))
    svc.store.save(old)
    outcome = handle_mail(svc, envelope)
    assert outcome.duplicate and "recorded by an older pbem" in receipt_text(outcome)
    assert bids(svc) == {}


# 2. prose around the block is not orders

def test_a_greeting_above_signon_is_not_an_order_and_is_mentioned_once() -> None:
    svc = service()
    outcome = handle_mail(svc, parse_mail(mail(
        "Hi GM,\n\nhere are my orders for this turn.\n\nSIGNON ann g ann-tok\nBID 3\nSIGNOFF\n\nCheers,\nAnn\n")))
    text = receipt_text(outcome)
    assert list(bids(svc).values()) == [3]
    assert "orders received" in outcome.replies[0].subject
    assert "Hi GM" not in text and "Cheers" not in text
    # the signature below SIGNOFF never reaches the order reader; the greeting is counted
    assert text.count("outside SIGNON") == 1 and "(2 lines outside SIGNON…SIGNOFF)" in text


# 3. several blocks in one mail

def test_two_blocks_in_one_mail_are_each_read_and_answered() -> None:
    svc = service()
    body = ("Bob asked me to send his too.\n\nSIGNON ann g ann-tok\nBID 3\nSIGNOFF\n\n"
            "SIGNON bob g bob-tok\nBID 1\nSIGNOFF\n")
    raw = mail(body).replace(b"From: Ann Example <ann@example.org>", b"From: Ann Example <ann@example.org>")
    svc.create("h", "minigame", {"rounds": 3}, [PLAYERS[0], PLAYERS[1].model_copy(update={"address": "ann@example.org"})],
               settings={"deadline_hours": 24}, secret=bytes(range(32)))
    outcome = handle_mail(svc, parse_mail(raw.replace(b" g ", b" h ")))
    receipts = [m for m in outcome.replies if m.key.startswith("receipt")]
    assert len(receipts) == 2 and all("orders received" in m.subject for m in receipts)
    submitted = [e for e in svc.loader.campaign_events("h") if type(e).__name__ == "OrdersSubmitted"]
    assert sorted((e.player, e.lines) for e in submitted) == [("ann", ["BID 3"]), ("bob", ["BID 1"])]
    again = handle_mail(svc, parse_mail(raw.replace(b" g ", b" h ")))
    assert again.duplicate and [m.key for m in again.replies if m.key.startswith("receipt")] == \
        [m.key for m in receipts]


def test_a_malformed_later_signon_does_not_refuse_the_valid_block() -> None:
    svc = service()
    outcome = handle_mail(svc, parse_mail(mail("SIGNON ann g ann-tok\nBID 3\nSIGNOFF\n\nSIGNON bob\nBID 1\n")))
    keys = [m.key.split(":")[0] for m in outcome.replies if m.key.startswith(("receipt", "refusal"))]
    assert keys == ["receipt", "refusal"]
    assert list(bids(svc).values()) == [3]
    assert "SIGNON needs three words" in receipt_text(outcome)


def test_a_mail_with_one_block_keeps_the_mail_key() -> None:
    envelope = Envelope(sender="ann@example.org", message_id="<m@x>", text="SIGNON ann g ann-tok\nBID 3", raw=b"x")
    svc = service()
    first = handle_mail(svc, envelope)
    assert not first.duplicate and handle_mail(svc, envelope).duplicate
    _, mail_uuid = mail_identity(envelope)
    assert [m.key for m in first.replies if m.key.startswith("receipt")] == [f"receipt:g:{mail_uuid}"]
