"""The typer sub-app and the daemon's entry point: one clear line for bad settings."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from pbem.mail.cli import make_app
from pbem.mail.maildir import ensure_maildir
from tests.mail.fakes import factory, player_mail

REPO = Path(__file__).resolve().parents[2]


def test_run_once_on_a_maildir_home(tmp_path: Path) -> None:
    inbox = ensure_maildir(tmp_path / "mail" / "inbox")
    (inbox / "new" / "1.M1.host").write_bytes(player_mail(1))
    result = CliRunner().invoke(make_app(factory), ["run", "--once", "--home", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "1 mails read, 1 mails sent" in result.output


def test_bad_settings_give_one_line_and_exit_2(tmp_path: Path) -> None:
    result = CliRunner().invoke(make_app(factory), ["run", "--once", "--home", str(tmp_path)],
                                env={"PBEM_IMAP_URL": "imap://nobody@host"})
    assert result.exit_code == 2
    assert "Traceback" not in result.output


def test_daemon_entry_point_bad_settings(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "pbem.mail.daemon", "--home", str(tmp_path), "--once",
                           "--handler", "tests.mail.fakes:factory"],
                          cwd=REPO, capture_output=True, text=True, timeout=60,
                          env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO), "PBEM_SMTP_URL": "ftp://x"})
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == ["pbem mail: PBEM_SMTP_URL: the URL must start with smtp:// or smtps://"]


def test_unreachable_imap_server_in_once_mode_is_one_line(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "pbem.mail.daemon", "--home", str(tmp_path), "--once",
                           "--handler", "tests.mail.fakes:factory"],
                          cwd=REPO, capture_output=True, text=True, timeout=60,
                          env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO),
                               "PBEM_IMAP_URL": "imap://u:secretpw@127.0.0.1:1/INBOX"})
    assert done.returncode == 2
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("pbem mail: cannot connect to imap:starttls://u@127.0.0.1:1")
    assert "secretpw" not in done.stderr
    assert "Traceback" not in done.stderr
