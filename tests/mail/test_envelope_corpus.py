"""Every mail of the corpus (what real clients send) yields exactly the expected order text.

`<name>.expected.txt` holds the text pbem must find, or `AUTO: <reason>` for mail that must
never be answered; `<name>.expected.json` the decoded JSON attachment, if any;
`<name>.orders.txt` the order blocks that text yields (`intakebench.orders_of`); `<name>_redelivered.eml`
the same mail after one more delivery hop, which must be recognised as the same mail.
"""

from __future__ import annotations

import json
from email import policy
from email.parser import BytesParser
from pathlib import Path

import pytest

from pbem.core.mailidentity import content_digest
from pbem.mail.envelope import auto_mail_reason, parse_mail
from pbem.mail.htmltext import read_html
from pbem.mail.intakebench import orders_of
from pbem.mail.replytext import strip_reply

CORPUS = Path(__file__).parent / "corpus"
MAILS = sorted(CORPUS.glob("*.eml"))


def expected(eml: Path) -> str:
    return (CORPUS / f"{eml.stem}.expected.txt").read_text(encoding="utf-8").rstrip("\n")


def test_corpus_is_complete() -> None:
    assert len(MAILS) >= 40
    assert all((CORPUS / f"{eml.stem}.expected.txt").exists() for eml in MAILS)
    answered = [eml for eml in MAILS if not expected(eml).startswith("AUTO: ")]
    assert all((CORPUS / f"{eml.stem}.orders.txt").exists() for eml in answered)


@pytest.mark.parametrize("eml", MAILS, ids=lambda p: p.stem)
def test_corpus_mail(eml: Path) -> None:
    raw = eml.read_bytes()
    want = expected(eml)
    reason = auto_mail_reason(raw, own_addresses=("gm@pbem.test",))
    if want.startswith("AUTO: "):
        assert reason == want.removeprefix("AUTO: ")
        return
    assert reason is None
    envelope = parse_mail(raw, source_key="maildir:x")
    assert envelope.text == want
    assert envelope.sender and envelope.message_id.startswith("<") and envelope.raw == raw
    json_file = CORPUS / f"{eml.stem}.expected.json"
    assert envelope.json_orders == (json.loads(json_file.read_text()) if json_file.exists() else None)
    assert orders_of(envelope) == (CORPUS / f"{eml.stem}.orders.txt").read_text(encoding="utf-8").rstrip("\n")


@pytest.mark.parametrize("eml", [m for m in MAILS if m.stem.endswith("_redelivered")], ids=lambda p: p.stem)
def test_a_redelivered_copy_is_the_same_mail(eml: Path) -> None:
    first = CORPUS / f"{eml.stem.removesuffix('_redelivered')}.eml"
    assert eml.read_bytes() != first.read_bytes()
    assert content_digest(eml.read_bytes()) == content_digest(first.read_bytes())
    assert parse_mail(eml.read_bytes()).message_id == parse_mail(first.read_bytes()).message_id


def html_part(eml: Path):  # type: ignore[no-untyped-def]
    try:
        return BytesParser(policy=policy.default).parsebytes(eml.read_bytes()).get_body(preferencelist=("html",))
    except RecursionError:  # the hostile mail nested a thousand deep has none the stdlib can reach
        return None


@pytest.mark.parametrize("eml", [m for m in MAILS if html_part(m) is not None], ids=lambda p: p.stem)
def test_html_alternative_reads_the_same(eml: Path) -> None:
    """Where a client also sent HTML, the HTML alone gives the same orders (HTML-only clients)."""
    assert strip_reply(read_html(html_part(eml).get_content()).text) == expected(eml)


def test_threading_headers_and_encoded_sender() -> None:
    envelope = parse_mail((CORPUS / "gmail_web_top_posted.eml").read_bytes())
    assert envelope.in_reply_to == "<receipt.2b1c@pbem.test>"
    assert envelope.references == ("<receipt.2b1c@pbem.test>",)
    assert envelope.subject == "Re: [pbem ratio-demo] Turn 3 report for FRA"
    latin = parse_mail((CORPUS / "latin1_quoted_printable_german.eml").read_bytes())
    assert latin.subject == "Re: Züge" and latin.sender == "kurt@web.example"
