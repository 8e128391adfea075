"""`pbem demo`: an example campaign from `examples/<ruleset>/demo/` played through the
same path as real mail — each example mail is delivered into a Maildir, the mail daemon
runs once, and the replies and reports land in an outbox Maildir under OUT.

Demo dice come from a secret derived from the campaign name, so two demo runs give the
same rolls and the same state hashes; a real campaign draws a fresh secret.
"""

from __future__ import annotations

import hashlib
import shutil
from collections.abc import Iterator
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.utils import format_datetime
from datetime import datetime, timezone
from pathlib import Path

from pbem.app import build_service, queue_mail
from pbem.core.datafile import load_data_file
from pbem.core.gm import GameMaster
from pbem.core.outcomes import Outcome
from pbem.core.service import CampaignService, CommandError, PlayerSpec
from pbem.mail.daemon import run as run_daemon
from pbem.mail.maildir import ensure_maildir
from pbem.mail.settings import load_settings

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
MARKER = ".pbem-demo"
DEMO_DATE = datetime(2026, 1, 5, 9, 0, tzinfo=timezone.utc)


def demo_dir(ruleset: str, example: str = "demo") -> Path:
    directory = EXAMPLES / ruleset / example
    if not (directory / "campaign.toml").is_file():
        known = sorted(p.parent.name for p in (EXAMPLES / ruleset).glob("*/campaign.toml"))
        raise CommandError(f"no example campaign {example!r} for ruleset {ruleset!r} "
                           f"(there are: {', '.join(known) or 'none'})")
    return directory


@dataclass
class Delivery:
    """One example mail handed to the service: what it refused, and whether steps resolved."""

    campaign: str
    mail: str
    player: str
    version_before: int
    steps_resolved: int = 0
    refused: list[str] = field(default_factory=list)  # "<mail>: <reason>" for every refused line


def create_example(service: CampaignService, source: Path, ruleset: str = "",
                   settings: dict | None = None) -> tuple[str, list[PlayerSpec], Outcome]:
    """Create the example campaign of `source` (its campaign.toml, players.toml and scenario)
    with the demo's dice secret; `ruleset` if the campaign file does not name one, and
    `settings` over the campaign file's own."""
    campaign = load_data_file(source / "campaign.toml")
    name = campaign["name"]
    players = [PlayerSpec.model_validate(p) for p in load_data_file(source / "players.toml")["player"]]
    _, created = service.create(name, campaign.get("ruleset", ruleset),
                                load_data_file((source / campaign["scenario"]).resolve()), players,
                                options=campaign.get("options", {}),
                                settings={**campaign.get("settings", {}), **(settings or {})},
                                secret=demo_secret(name))
    return name, players, created


def deliver_example(service: CampaignService, source: Path, upto: int | None = None,
                    settings: dict | None = None) -> Iterator[Delivery]:
    """Create the example campaign of `source` and hand its numbered mails to the service
    one by one (the first `upto`), straight to the commands the mail gateway would run:
    orders without their SIGNON/SIGNOFF lines, and a GM's `GM …` lines one at a time.
    Yields after each mail, so a caller can look (or time) between them."""
    name, players, _ = create_example(service, source, settings=settings)
    masters = {p.id for p in players if p.role == "gm"}
    for path in sorted(source.glob("[0-9]*.txt"))[:upto]:
        player = path.stem.split("-", 1)[1]
        lines = [line for line in path.read_text(encoding="utf-8").splitlines()
                 if line.split()[:1] not in (["SIGNON"], ["SIGNOFF"])]
        delivery = Delivery(name, path.name, player, service.projection(name).data.version)
        if player in masters:
            for line in (line.strip() for line in lines if line.strip().upper().startswith("GM ")):
                try:
                    delivery.steps_resolved += GameMaster(service).execute(name, line)[1].steps_resolved
                except (CommandError, ValueError) as error:
                    delivery.refused.append(f"{path.name}: {error}")
        else:
            outcome = service.submit(name, player, "\n".join(lines))
            receipt = outcome.receipt
            delivery.steps_resolved = outcome.steps_resolved
            delivery.refused += [f"{path.name}: {v.reason}" for v in receipt.verdicts if not v.accepted]
            if not receipt.accepted:
                delivery.refused.append(f"{path.name}: {receipt.reason}")
        yield delivery


def demo_secret(name: str) -> bytes:
    return hashlib.sha256(f"pbem demo dice:{name}".encode()).digest()


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
    (home / "pbem.toml").write_text(
        "[mail]\n"
        f'from = "gm@example.org"\n'
        f'maildir = "{(home / "inbox").as_posix()}"\n'
        f'outbox_maildir = "{(out / "mail").as_posix()}"\n'
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
    stats = run_daemon(settings, service.handle_mail, once=True)
    projection = service.projection(name)
    reports = out / "reports"
    reports.mkdir()
    from pbem.reports import render_report

    for player in projection.data.players.values():
        (reports / f"{player.id}.txt").write_text(render_report(projection, player.id, "text"), encoding="utf-8")
        (reports / f"{player.id}.html").write_text(render_report(projection, player.id, "html"), encoding="utf-8")
    status = projection.status()
    return (f"{name}: {stats.received} mails read, {stats.sent} sent; {status['steps_resolved']} steps resolved, "
            f"now {'finished' if status['finished'] else 'at ' + str(status['step'])}\n"
            f"state hash {status['state_hash']}\n"
            f"reports: {reports}/<player>.txt|.html; all mail sent: {out / 'mail'}\n"
            f"check it: pbem verify {name} --home {home}")
