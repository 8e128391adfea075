"""Issue 12, security: tokens hashed and compared in constant time, the dice secret kept out
of every mail before it is revealed, passwords never echoed, player-written strings escaped
and never evaluated, attachment names never used as paths, compressed payloads never opened."""

from __future__ import annotations

import builtins
import gzip
import hmac
import io
import logging
from datetime import datetime, timezone
from email.message import EmailMessage
from pathlib import Path

import pytest

from pbem.core import service as service_module
from pbem.core.inbox import handle_mail
from pbem.core.messages import Envelope
from pbem.core.service import CampaignService, PlayerSpec
from pbem.core.store import open_store
from pbem.mail.envelope import parse_mail
from pbem.mail.logs import configure_logging
from pbem.mail.settings import MailSettingsError, load_settings
from pbem.reports.renderer import MailRenderer
from tests.mail.test_intake_defects import minigame_registered, service  # noqa: F401

SECRET = bytes(range(32))
EVIL = "<script>alert(1)</script>{{ 7*7 }}{% raw %}"


def evil_service() -> CampaignService:
    svc = CampaignService(open_store(env={"PERSISTENCE_MODULE": "eventsourcing.popo"}),
                          MailRenderer(from_address="gm@pbem.test"),
                          clock=lambda: datetime(2026, 5, 4, 9, tzinfo=timezone.utc))
    svc.create("g", "minigame", {"rounds": 2},
               [PlayerSpec(id="ann", name=EVIL, address="ann@example.org", token="ann-tok"),
                PlayerSpec(id="bob", name="Bob", address="bob@example.org", token="bob-tok")],
               settings={"deadline_hours": 24}, secret=SECRET)
    return svc


def every_mail(svc: CampaignService) -> list:
    mails = []
    for n, (who, body) in enumerate([
            ("ann", f"SIGNON ann g ann-tok\nBID 3\n<img src=x onerror=alert(1)>{{{{ 7*7 }}}}\n"
                    f"PRESS TO ALL\n{EVIL}\nENDPRESS\nSIGNOFF"),
            ("bob", "SIGNON bob g bob-tok\nBID 1\nSIGNOFF"),
            ("ann", "SIGNON ann g ann-tok\nKEEP\nSIGNOFF"),
            ("ann", "SIGNON ann g ann-tok\nREROLL\nSIGNOFF")]):
        envelope = Envelope(sender=f"{who}@example.org", message_id=f"<s{n}@example.org>", text=body,
                            raw=body.encode() + bytes([n]))
        mails += handle_mail(svc, envelope).replies
    return mails


def test_tokens_are_stored_hashed_and_compared_in_constant_time(monkeypatch: pytest.MonkeyPatch) -> None:
    svc = service()
    stored = b"".join(item.state for item in svc.store.recorder.select_notifications(1, 1000))
    assert b"ann-tok" not in stored and b"bob-tok" not in stored
    calls = []
    constant_time = hmac.compare_digest
    monkeypatch.setattr(service_module.hmac, "compare_digest",
                        lambda a, b: calls.append((a, b)) or constant_time(a, b))
    assert svc.authenticate("g", "ann", "ann-tok", "ann@example.org")[0] == "ann"
    assert len(calls) == 1 and "ann-tok" not in calls[0]


def test_the_dice_secret_is_in_no_mail_before_it_is_revealed() -> None:
    svc = evil_service()
    mails = every_mail(svc)
    assert any("round" in m.text for m in mails)  # dice were rolled and reported
    for mail in mails:
        for body in (mail.text, mail.html or "", *(a.data.decode("utf-8", "replace") for a in mail.attachments)):
            assert SECRET.hex() not in body and SECRET.hex().upper() not in body
    campaign_log = b"".join(e.state for e in svc.store.recorder.select_notifications(1, 1000)
                            if b"Vault" not in e.topic.encode())
    assert SECRET.hex().encode() not in campaign_log


def test_player_written_strings_are_escaped_and_never_evaluated() -> None:
    mails = every_mail(evil_service())
    html = [m.html for m in mails if m.html]
    assert html and not any("<script>" in page or "<img src=x" in page for page in html)
    assert any("&lt;script&gt;" in page for page in html)
    everything = "".join(m.text + (m.html or "") for m in mails)
    assert "{{ 7*7 }}" in everything and "49" not in everything.replace("2049", "")


def test_passwords_come_from_settings_or_env_and_are_never_echoed(tmp_path: Path) -> None:
    settings = load_settings(tmp_path, {"PBEM_IMAP_URL": "imaps://gm%40example.org:hunter2-secret@imap.example.org/INBOX",
                                        "PBEM_SMTP_URL": "smtps://gm%40example.org:hunter2-secret@smtp.example.org"})
    assert "hunter2-secret" not in repr(settings) and "hunter2-secret" not in str(settings)
    with pytest.raises(MailSettingsError) as error:
        load_settings(tmp_path, {"PBEM_IMAP_URL": "ftp://gm:hunter2-secret@imap.example.org"})
    assert "hunter2-secret" not in str(error.value)
    stream = io.StringIO()
    configure_logging()
    logging.getLogger("pbem").handlers[0].stream = stream  # type: ignore[attr-defined]
    logging.getLogger("pbem.mail.test").info("settings", extra={"pbem_fields": {"settings": settings}})
    assert "hunter2-secret" not in stream.getvalue()


def test_attachment_names_are_never_used_as_paths(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = "a@example.org", "gm@pbem.test", "orders"
    message.set_content("SIGNON ann g ann-tok\n")
    for name in ("../../../../tmp/pbem-pwned.txt", "/etc/passwd.json", "C:\\Windows\\orders.txt"):
        message.add_attachment(b"BID 3\n", maintype="text", subtype="plain", filename=name)
    raw = message.as_bytes()

    def no_files(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"a file was opened: {args[0]!r}")

    monkeypatch.setattr(builtins, "open", no_files)
    monkeypatch.setattr(Path, "open", no_files)
    envelope = parse_mail(raw)
    assert envelope.text.count("BID 3") == 3 and not Path("/tmp/pbem-pwned.txt").exists()


def test_compressed_payloads_are_never_opened() -> None:
    bomb = gzip.compress(b"0" * 20_000_000)  # 20 MB of zeros in about 20 kB
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = "a@example.org", "gm@pbem.test", "orders"
    message.set_content("SIGNON ann g ann-tok\n")
    message.add_attachment(bomb, maintype="application", subtype="gzip", filename="orders.json.gz")
    message.add_attachment(bomb, maintype="application", subtype="json", filename="orders.json",
                           headers=["Content-Encoding: gzip"])
    envelope = parse_mail(message.as_bytes())
    assert envelope.json_orders is None and "cannot be read" in envelope.json_problem
    assert len(envelope.text) < 100 and len(message.as_bytes()) < 100_000
