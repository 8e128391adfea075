"""Every example campaign's mail reaches the service as written through the mail gateway:
`pbem demo` sends the files as mail, and the gateway repairs what it takes for a webmail's
hard wrap (pbem/mail/flowed.py), so an example mail it would change would play differently by
mail than in the tests that hand the files to the service directly."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem import resources
from pbem.mail.envelope import parse_mail
from pbem.tools.demo import as_mail

MAILS = sorted(resources.examples_dir().glob("*/*/[0-9]*.txt"))


def test_there_are_example_mails_to_read():
    assert {path.parent.name for path in MAILS} >= {"demo", "war-demo", "playbook", "campaign", "queued"}


@pytest.mark.parametrize("mail", MAILS, ids=lambda p: f"{p.parent.parent.name}/{p.parent.name}/{p.name}")
def test_the_mail_gateway_reads_each_example_mail_as_written(mail: Path):
    text = mail.read_text(encoding="utf-8")
    raw = as_mail(text, sender="player@example.org", to="gm@example.org", number=1, name=mail.parent.name)
    assert parse_mail(raw).text.splitlines() == text.strip("\n").splitlines()
