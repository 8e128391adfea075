"""`pbem demo`: an example campaign from `examples/<ruleset>/demo/` played through the
same path as real mail — each example mail is delivered into a Maildir, the mail daemon
runs once, and the replies and reports land in an outbox Maildir under OUT.

Demo dice come from a secret derived from the campaign name, so two demo runs give the
same rolls and the same state hashes; a real campaign draws a fresh secret.
"""

from __future__ import annotations

import shutil
from datetime import datetime, timezone
from email.message import EmailMessage
from email.utils import format_datetime
from functools import partial
from pathlib import Path

from pbem.app import build_service, queue_mail
from pbem.core.inbox import handle_mail
from pbem.core.service import CommandError
from pbem.mail.daemon import run as run_daemon
from pbem.mail.maildir import ensure_maildir
from pbem.mail.settings import load_settings
from pbem.reports import render_report
from pbem.tools.examples import create_example, demo_dir

MARKER = ".pbem-demo"
DEMO_DATE = datetime(2026, 1, 5, 9, 0, tzinfo=timezone.utc)


def _fresh(out: Path) -> Path:
    """OUT, emptied if an earlier demo wrote it; refuse to clear anything else."""
    if out.exists() and any(out.iterdir()):
        if not (out / MARKER).exists():
            raise CommandError(f"{out} exists and was not written by `pbem demo`; choose another --out")
        shutil.rmtree(out)
    out.mkdir(parents=True, exist_ok=True)
    (out / MARKER).write_text("written by pbem demo\n")
    return out


def as_mail(body: str, *, sender: str, to: str, number: int, name: str) -> bytes:
    """An example order file as the mail a player would send."""
    message = EmailMessage()
    message["From"] = sender
    message["To"] = to
    message["Subject"] = f"{name} orders"
    message["Date"] = format_datetime(DEMO_DATE)
    message["Message-ID"] = f"<demo-{number:03d}.{name}@example.org>"
    message.set_content(body)
    return bytes(message)


def run_demo(ruleset: str, out: Path, example: str = "demo") -> str:
    source = demo_dir(ruleset, example)
    out = _fresh(out)
    home = out / "home"
    home.mkdir()
    (home / "pbem.toml").write_text(  # paths relative to the home: a copy of OUT is a demo of its own
        "[mail]\n"
        'from = "gm@example.org"\n'
        'maildir = "inbox"\n'
        'outbox_maildir = "../mail"\n'
    )
    service = build_service(home, from_address="gm@example.org")
    service.clock = lambda: DEMO_DATE  # deadlines in the reports are the same on every run
    name, players, created = create_example(service, source, ruleset)
    inbox = ensure_maildir(home / "inbox")
    addresses = {p.id: p.address for p in players}
    for number, path in enumerate(sorted(source.glob("[0-9]*.txt")), start=1):
        player = path.stem.split("-", 1)[1]
        raw = as_mail(path.read_text(encoding="utf-8"), sender=addresses[player], to="gm@example.org",
                      number=number, name=name)
        (inbox / "new" / f"{number:04d}.{path.stem}").write_bytes(raw)
    settings = load_settings(home, env={})
    queue_mail(home, created.mail)
    stats = run_daemon(settings, partial(handle_mail, service), once=True)
    projection = service.projection(name)
    reports = out / "reports"
    reports.mkdir()
    for player in projection.data.players.values():
        (reports / f"{player.id}.txt").write_text(render_report(projection, player.id, "text"), encoding="utf-8")
        (reports / f"{player.id}.html").write_text(render_report(projection, player.id, "html"), encoding="utf-8")
    status = projection.status()
    return (f"{name}: {stats.received} mails read, {stats.sent} sent; {status['steps_resolved']} steps resolved, "
            f"now {'finished' if status['finished'] else 'at ' + str(status['step'])}\n"
            f"state hash {status['state_hash']}\n"
            f"reports: {reports}/<player>.txt|.html; all mail sent: {out / 'mail'}\n"
            f"check it: pbem verify {name} --home {home}")
