"""Throw-away mail servers on 127.0.0.1 for the integration tests and the bench.

`Dovecot` runs a real Dovecot (Debian `dovecot-imapd`) from a private directory: its own
config, self-signed certificate, users file and free ports, nothing from /etc/dovecot, no
systemd (config as in research/libraries.md §3.2). `SmtpCapture` is an in-process aiosmtpd
server that keeps every mail it receives, as a stand-in for the players' mailboxes.
"""

from __future__ import annotations

import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass, field
from email import policy
from email.parser import BytesParser
from pathlib import Path
from urllib.parse import quote

from aiosmtpd.controller import Controller


class ServerUnavailable(RuntimeError):
    """A server binary is missing or did not start; the message says what to install."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _wait_for_port(port: int, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return True
        except OSError:
            time.sleep(0.05)
    return False


_CONFIG = """\
base_dir = {root}/run
state_dir = {root}/state
instance_name = pbem-{tag}
protocols = imap
listen = 127.0.0.1
log_path = {root}/dovecot.log
ssl = yes
ssl_cert = <{root}/cert.pem
ssl_key = <{root}/key.pem
disable_plaintext_auth = no
auth_mechanisms = plain login
first_valid_uid = 100
mail_location = maildir:{root}/mail/%u/Maildir
mailbox_idle_check_interval = 1 secs
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {root}/users
}}
userdb {{
  driver = static
  args = uid=vmail gid=vmail home={root}/mail/%u
}}
service imap-login {{
  inet_listener imap {{
    address = 127.0.0.1
    port = {imap_port}
  }}
  inet_listener imaps {{
    address = 127.0.0.1
    port = {imaps_port}
  }}
}}
protocol imap {{
  mail_max_userip_connections = 100
}}
"""


class Dovecot:
    """A private Dovecot instance in a fresh temporary directory (run as root, like the
    Debian package). Dovecot's unprivileged processes must traverse the directory, so it is
    made under the system temp dir, mode 0755, not under pytest's private (0700) tmp_path."""

    def __init__(self, users: dict[str, str]) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="pbem-dovecot-"))
        self.root.chmod(0o755)
        self.users = users
        self.imap_port = free_port()
        self.imaps_port = free_port()
        self.config = self.root / "dovecot.conf"
        self.cert = self.root / "cert.pem"

    def start(self, timeout: float = 10.0) -> Dovecot:
        binary = shutil.which("dovecot") or ("/usr/sbin/dovecot" if os.path.exists("/usr/sbin/dovecot") else None)
        if binary is None:
            raise ServerUnavailable("dovecot is not installed: apt-get install -y --no-install-recommends "
                                    "dovecot-imapd openssl")
        self._ensure_vmail()
        for sub in ("run", "state", "mail"):
            (self.root / sub).mkdir(parents=True, exist_ok=True)
        vmail = pwd.getpwnam("vmail")
        os.chown(self.root / "mail", vmail.pw_uid, vmail.pw_gid)
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "3650",
                        "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
                        "-keyout", str(self.root / "key.pem"), "-out", str(self.cert)],
                       check=True, capture_output=True, timeout=60)
        (self.root / "users").write_text("".join(f"{u}:{{PLAIN}}{p}\n" for u, p in self.users.items()))
        self.config.write_text(_CONFIG.format(root=self.root, tag=self.imap_port, imap_port=self.imap_port,
                                              imaps_port=self.imaps_port))
        # Dovecot daemonizes; its children inherit stdout/stderr, so they must not be pipes.
        errors = self.root / "start.err"
        with open(errors, "wb") as sink:
            started = subprocess.run([binary, "-c", str(self.config)], stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=sink, timeout=30)
        if started.returncode != 0 or not _wait_for_port(self.imap_port, timeout):
            message = errors.read_text(errors="replace").strip() or self._log_tail()
            raise ServerUnavailable(f"dovecot did not start: {message}")
        return self

    def stop(self) -> None:
        """Stop this instance (doveadm, else SIGTERM to its own master pid) and delete its files."""
        subprocess.run(["doveadm", "-c", str(self.config), "stop"], capture_output=True, timeout=30)
        pid_file = self.root / "run" / "master.pid"
        if not self._gone(pid_file, 5.0):
            try:
                os.kill(int(pid_file.read_text().strip()), signal.SIGTERM)
            except (OSError, ValueError):
                pass
            self._gone(pid_file, 5.0)
        shutil.rmtree(self.root, ignore_errors=True)

    @staticmethod
    def _gone(pid_file: Path, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while pid_file.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        return not pid_file.exists()

    def url(self, user: str, *, implicit_tls: bool = False, folder: str = "INBOX") -> str:
        scheme, port = ("imaps", self.imaps_port) if implicit_tls else ("imap", self.imap_port)
        return f"{scheme}://{quote(user, safe='')}:{quote(self.users[user], safe='')}@127.0.0.1:{port}/{folder}"

    def expunge_all(self, user: str) -> None:
        subprocess.run(["doveadm", "-c", str(self.config), "expunge", "-u", user, "mailbox", "*", "all"],
                       capture_output=True, timeout=30)

    def _log_tail(self) -> str:
        log = self.root / "dovecot.log"
        return log.read_text(errors="replace").strip().splitlines()[-1] if log.exists() else "no log"

    @staticmethod
    def _ensure_vmail() -> None:
        try:
            pwd.getpwnam("vmail")
        except KeyError:
            subprocess.run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", "vmail"],
                           check=True, capture_output=True, timeout=30)


@dataclass(frozen=True)
class CapturedMail:
    recipients: tuple[str, ...]
    raw: bytes
    message_id: str
    key: str
    in_reply_to: str
    received_at: float


@dataclass
class _Capture:
    mails: list[CapturedMail] = field(default_factory=list)
    changed: threading.Condition = field(default_factory=threading.Condition)

    async def handle_DATA(self, server, session, envelope) -> str:  # noqa: N802 - aiosmtpd's hook name
        raw = envelope.original_content or envelope.content
        headers = BytesParser(policy=policy.compat32).parsebytes(raw, headersonly=True)
        mail = CapturedMail(tuple(envelope.rcpt_tos), raw, str(headers.get("Message-ID", "")),
                            str(headers.get("X-Pbem-Key", "")), str(headers.get("In-Reply-To", "")), time.time())
        with self.changed:
            self.mails.append(mail)
            self.changed.notify_all()
        return "250 OK"


class SmtpCapture:
    """aiosmtpd on 127.0.0.1 in a background thread; `mails` holds what it received."""

    def __init__(self) -> None:
        self.port = free_port()
        self._capture = _Capture()
        self._controller = Controller(self._capture, hostname="127.0.0.1", port=self.port)

    @property
    def mails(self) -> list[CapturedMail]:
        with self._capture.changed:
            return list(self._capture.mails)

    @property
    def url(self) -> str:
        return f"smtp://127.0.0.1:{self.port}?tls=none"

    def start(self) -> SmtpCapture:
        self._controller.start()
        return self

    def stop(self) -> None:
        self._controller.stop()

    def wait_for(self, count: int, timeout: float) -> list[CapturedMail]:
        """Block until at least `count` mails arrived or `timeout` passed; returns them all."""
        deadline = time.monotonic() + timeout
        with self._capture.changed:
            while len(self._capture.mails) < count and (remaining := deadline - time.monotonic()) > 0:
                self._capture.changed.wait(remaining)
            return list(self._capture.mails)
