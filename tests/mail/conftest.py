"""Fixtures for the mail tests: a real Dovecot (session) and an aiosmtpd capture (per test).

Without `dovecot` the integration tests are skipped, except under CI (`CI` set) where a
missing server is a failure: CI must install `dovecot-imapd`.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from pbem.mail.localservers import Dovecot, ServerUnavailable, SmtpCapture
from tests.mail.mailbox import GM, USERS


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "dovecot: needs a real Dovecot on 127.0.0.1 (apt-get install dovecot-imapd)")
    config.addinivalue_line("markers", "slow: takes tens of seconds (crash test)")


@pytest.fixture(scope="session")
def dovecot() -> Iterator[Dovecot]:
    if shutil.which("dovecot") is None and not Path("/usr/sbin/dovecot").exists():
        message = "dovecot is missing: apt-get install -y --no-install-recommends dovecot-imapd openssl"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    try:
        server = Dovecot(USERS).start()
    except ServerUnavailable as error:
        pytest.fail(str(error))
    yield server
    server.stop()


@pytest.fixture
def gm_mailbox(dovecot: Dovecot) -> Dovecot:
    """The Dovecot with the GM's mailboxes emptied."""
    dovecot.expunge_all(GM)
    return dovecot


@pytest.fixture
def smtp_capture() -> Iterator[SmtpCapture]:
    capture = SmtpCapture().start()
    yield capture
    capture.stop()
