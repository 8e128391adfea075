"""The `pbem` command. Thin: every command calls the service; every error is one clear
line and a non-zero exit, never a traceback (set PBEM_DEBUG=1 to see one)."""

from __future__ import annotations

import json
import os
import sqlite3
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import metadata
from pathlib import Path
from typing import Optional

import typer
from eventsourcing.persistence import PersistenceError
from pydantic import ValidationError

from pbem import __version__
from pbem.app import (HomeBusy, RestoreRefused, SubmitRefused, backup_home, build_service, home_dir, queue_mail,
                      restore_home, serve, submit_file)
from pbem.core import ruleset as rulesets
from pbem.core.campaign import Campaign
from pbem.core.cases import CaseFormatError, case_files, parse_case, run_case
from pbem.core.datafile import DataFileError, load_data_file
from pbem.core.projection import engine_version
from pbem.core.ruleset import RulesetError, ScenarioError
from pbem.core.service import CampaignService, CommandError, PlayerSpec
from pbem.core.store import CampaignNotFound, HomeNotFound, StoreDamaged, store_damage
from pbem.mail.imap import SourceError
from pbem.mail.settings import MailSettingsError
from pbem.reports import ReportError
from pbem.reports.templating import TemplateProblem

# Help is plain text: docstrings wrap as paragraphs and `[[player]]` is not rich markup.
PLAIN_HELP = None
app = typer.Typer(help="pbem: a play-by-email adjudicator for grand-strategy board games.",
                  no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False,
                  rich_markup_mode=PLAIN_HELP)


def _group(name: str, help: str) -> typer.Typer:
    group = typer.Typer(help=help, no_args_is_help=True, rich_markup_mode=PLAIN_HELP)
    app.add_typer(group, name=name)
    return group


case_app = _group("case", "Run plain-text adjudication cases.")
scenario_app = _group("scenario", "Check scenario data files.")
scenario_map_app = typer.Typer(help="The board a campaign's reports draw their map on.", no_args_is_help=True,
                               rich_markup_mode=PLAIN_HELP)
scenario_app.add_typer(scenario_map_app, name="map")
bench_app = _group("bench", "Benchmarks (speed and memory are measured here, never in tests).")
gm_app = _group("gm", "The game master's powers: each one a fact with a reason, announced to the players.")
dice_app = _group("dice", "Check the dice of a campaign.")
examples_app = _group("examples", "The example scenarios and campaigns pbem ships, listed and copied out from any "
                                  "install (a wheel's too).")

HomeOption = typer.Option(None, "--home", envvar="PBEM_HOME",
                          help="Campaign home directory (default ./pbem-home).")

USER_ERRORS = (CommandError, CampaignNotFound, DataFileError, ScenarioError, RulesetError, CaseFormatError,
               ValidationError, FileNotFoundError, IsADirectoryError, NotADirectoryError, PermissionError,
               ReportError, TemplateProblem, MailSettingsError, SourceError, StoreDamaged, HomeBusy, HomeNotFound,
               FileExistsError, RestoreRefused)


def _print_version(wanted: bool) -> None:
    """`pbem --version`: pbem's, the engine of every installed ruleset (the version each step
    it resolves records), and the event store library's."""
    if not wanted:
        return
    typer.echo(f"pbem {__version__}")
    for name in rulesets.available():
        try:
            ruleset = rulesets.load(name)
        except Exception as error:  # a broken plug-in is reported, not fatal to the listing
            typer.echo(f"ruleset {name}: cannot be loaded ({type(error).__name__}: {error})")
            continue
        typer.echo(f"ruleset {name} {ruleset.version} (engine {engine_version(ruleset)})")
    typer.echo(f"eventsourcing {metadata.version('eventsourcing')}")
    raise typer.Exit()


@app.callback()
def _global_options(version: bool = typer.Option(False, "--version", callback=_print_version, is_eager=True,
                                                 help="Print the versions of pbem, its rulesets and its event "
                                                      "store.")) -> None:
    """The options before any command (`--version`)."""


class Failure(Exception):
    """A command's own failure: its message is printed as is."""


def _fail(message: str) -> None:
    raise Failure(message)


def _echo_json(value: object) -> None:
    typer.echo(json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False))


def _print_figures(figures: dict, as_json: bool) -> None:
    """A bench's figures: JSON for tools, or one aligned line each."""
    if as_json:
        _echo_json(figures)
        return
    for key, value in figures.items():
        typer.echo(f"{key:>22}: {value}")


def _players(path: Path) -> tuple[list[PlayerSpec], dict]:
    """A players file: its `[[player]]` tables and the campaign's `[settings]`."""
    data = load_data_file(path)
    entries = data.get("player")
    if not isinstance(entries, list) or not entries:
        _fail(f"{path}: expected one or more [[player]] tables")
    settings = data.get("settings", {})
    if not isinstance(settings, dict):
        _fail(f"{path}: [settings] is a table of campaign settings")
    return [PlayerSpec.model_validate(entry) for entry in entries], settings


def _existing(home: Optional[Path]) -> CampaignService:
    """The service of a home that has campaigns: only `pbem new` (and the daemon) make one."""
    return build_service(home, create=False)


def _options(values: list[str]) -> dict:
    options = {}
    for value in values:
        key, sep, raw = value.partition("=")
        if not sep:
            _fail(f"--option takes name=value, not {value!r}")
        try:
            options[key] = json.loads(raw)
        except json.JSONDecodeError:
            options[key] = raw
    return options


@app.command()
def new(campaign: str = typer.Argument(..., help="Name of the new campaign (one word)."),
        ruleset: str = typer.Option(..., "--ruleset", help="Ruleset name, e.g. ratio-regis."),
        scenario: Path = typer.Option(..., "--scenario", help="Scenario file (TOML or JSON)."),
        players: Path = typer.Option(..., "--players", help="Players file: [[player]] id, address, token …"),
        option: list[str] = typer.Option([], "--option", help="Campaign option name=value (repeatable)."),
        demo_dice: bool = typer.Option(False, "--demo-dice",
                                       help="Dice from the public secret `pbem demo` uses for this campaign name, "
                                            "so an example campaign's mails fit its deal and rolls. Anyone can "
                                            "foresee every roll: for following the examples, never for play."),
        home: Optional[Path] = HomeOption) -> None:
    """Create a campaign and print each player's SIGNON token."""
    from pbem.tools.examples import demo_secret

    service = build_service(home)
    specs, settings = _players(players)
    tokens, outcome = service.create(campaign, ruleset, load_data_file(scenario), specs,
                                     options=_options(option), settings=settings,
                                     secret=demo_secret(campaign) if demo_dice else None)
    queue_mail(home, outcome.mail)
    typer.echo(f"campaign {campaign} created ({ruleset}); dice commitment "
               f"{service.projection(campaign).data.commitment}")
    if demo_dice:
        typer.echo("  its dice are the demo's: anyone can foresee every roll (for trying the examples, never "
                   "for play)")
    for player, token in tokens.items():
        typer.echo(f"  SIGNON {player} {campaign} {token}")


@app.command()
def submit(campaign: str = typer.Argument(..., help="The campaign the orders are for."),
           file: Path = typer.Argument(..., help="A mail (.eml) or a plain-text order file."),
           sender: Optional[str] = typer.Option(None, "--from", help="Sender address (default: the player's own)."),
           home: Optional[Path] = HomeOption) -> None:
    """Take a mail or text file as if it had arrived by mail (the daemon's intake: an
    auto-reply is not answered, an oversize mail is refused), and print the answer."""
    try:
        received = submit_file(home, campaign, file, sender)
    except SubmitRefused as error:
        _fail(str(error))
    if received.disposition.startswith("ignored:"):
        _fail(f"{file}: not taken, as the mail daemon would not take it: "
              f"{received.disposition.removeprefix('ignored:')} mail is never answered (docs/mail.md)")
    if received.disposition == "duplicate":
        typer.echo("this mail was already received; nothing changed (the same answer follows)")
    for reply in received.replies:
        if reply.key.startswith(("receipt", "refusal", "mail-refused", "help")):
            typer.echo(reply.text)


@app.command("list")
def list_campaigns(as_json: bool = typer.Option(False, "--json", help="Print JSON."),
                   home: Optional[Path] = HomeOption) -> None:
    """List the campaigns of the home."""
    service = _existing(home)
    rows = []
    for name in service.names():
        status = service.projection(name).status()
        rows.append({k: status[k] for k in ("campaign", "ruleset", "step", "steps_resolved", "finished", "paused")})
    if as_json:
        _echo_json(rows)
        return
    if not rows:
        typer.echo("no campaigns yet (create one with `pbem new` or run `pbem demo`)")
    for row in rows:
        where = "finished" if row["finished"] else f"at {row['step']}" + (", PAUSED" if row["paused"] else "")
        typer.echo(f"{row['campaign']:<20} {row['ruleset']:<14} {row['steps_resolved']:>6} steps  {where}")


@app.command()
def status(campaign: str, as_json: bool = typer.Option(False, "--json", help="Print JSON."),
           home: Optional[Path] = HomeOption) -> None:
    """Where a campaign stands: step, state hash, powers and the decisions owed."""
    data = _existing(home).projection(campaign).status()
    if as_json:
        _echo_json(data)
        return
    typer.echo(f"{data['campaign']} ({data['ruleset']}, engine {data['engine_version']})")
    typer.echo(f"step: {data['step'] or 'finished'}   resolved steps: {data['steps_resolved']}   "
               f"log version: {data['log_version']}")
    typer.echo(f"state hash: {data['state_hash'] or '-'}")
    if data["paused"]:
        typer.echo(f"PAUSED by the GM since {data['paused_at']}: {data['paused_reason']} (orders are taken; nothing "
                   "is processed and no deadline passes until `pbem gm resume`)")
    for owed in data["pending"]:
        typer.echo(f"  owed by {owed['player']}: {owed['prompt']} (default {owed['default']!r}, "
                   f"deadline {owed['deadline'] or 'none'})")


#: Facts from which a replay on a terminal shows its progress (shorter ones are over at once).
LONG_REPLAY = 2000


def _replayed(service, campaign: str, **options):
    """`loader.load(campaign, **options)`; a long replay shows a progress bar (on stderr)
    when the output is a terminal, never when it is piped."""
    if not (sys.stdout.isatty() and sys.stderr.isatty()):
        return service.loader.load(campaign, **options)
    total = service.loader.length(campaign)
    if total < LONG_REPLAY:
        return service.loader.load(campaign, **options)
    from rich.console import Console
    from rich.progress import Progress

    with Progress(console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task(f"replaying {campaign}", total=total)

        def advance(version: int) -> None:
            if version % 500 == 0 or version == total:  # a redraw per fact would slow the replay
                progress.update(task, completed=version)

        return service.loader.load(campaign, on_fact=advance, **options)


@app.command()
def replay(campaign: str, to: Optional[str] = typer.Option(None, "--to", help="Stop after this step."),
           turn: Optional[int] = typer.Option(None, "--turn", help="Only the steps of this game turn."),
           explain: bool = typer.Option(False, "--explain", help="Every decision, policy and roll."),
           home: Optional[Path] = HomeOption) -> None:
    """Replay a campaign from its log, step by step (checking every state hash)."""
    from pbem.core.explain import explain as explain_step

    service = _existing(home)
    projection = _replayed(service, campaign, use_snapshots=False)
    steps = projection.resolved
    if to is not None:
        keys = [s.step for s in steps]
        if to not in keys:
            _fail(f"no resolved step {to!r} in {campaign}")
        steps = steps[: keys.index(to) + 1]
    if turn is not None:
        steps = [s for s in steps if projection.ruleset.turn_of(s.step) == turn]
        if not steps:
            _fail(f"no resolved step of turn {turn} in {campaign}")
    if not steps:
        typer.echo(f"no step of {campaign} is resolved yet: it waits at {projection.step} "
                   "(see `pbem status`)")
    for step in steps:
        if explain:
            typer.echo("\n".join(explain_step(step, "gm")))
        else:
            typer.echo(f"{step.step}  state {step.state_hash[:16]}  (log version {step.version})")
    for divergence in projection.divergences:
        typer.echo(f"DIVERGES at {divergence.step}: {divergence.reason}")


@app.command()
def orders(campaign: str, player: Optional[str] = typer.Option(None, "--player", help="Only this player's."),
           home: Optional[Path] = HomeOption) -> None:
    """List the order sets received, with the log version `pbem gm reprocess --replace` names."""
    for event in _master(home).order_sets(campaign):
        if player is not None and event.player != player:
            continue
        taken = isinstance(event, Campaign.OrdersSubmitted)
        lines = event.lines if taken else [v["text"] for v in event.verdicts]
        first = (lines[0] if lines else "") + (f" (+{len(lines) - 1} lines)" if len(lines) > 1 else "")
        typer.echo(f"{event.originator_version:>6}  {event.player:<8} {event.step or '-':<20} "
                   f"{'taken' if taken else 'refused':<8} {first}")


@app.command()
def verify(campaign: str,
           jobs: Optional[int] = typer.Option(None, "--jobs", min=1, help="Processes replaying segments of the "
                                              "log side by side (default: the machine's cores; 1: one replay)."),
           home: Optional[Path] = HomeOption) -> None:
    """Replay the whole log and check every recorded state hash, split at stored snapshots
    across processes (each segment must end on the snapshot the next starts from); says
    which steps another engine version (an earlier pbem) resolved."""
    from pbem.core.verify import verify_campaign

    _existing(home).store.close()  # refuses a home with no campaigns, as every reading command does
    if sys.stderr.isatty():
        from rich.console import Console
        from rich.progress import Progress

        with Progress(console=Console(stderr=True), transient=True) as progress:
            task = progress.add_task(f"verifying {campaign}", total=None)

            def advance(facts: int, total: int) -> None:
                progress.update(task, total=total, advance=facts)

            verdict = verify_campaign(home_dir(home), campaign, jobs, advance)
    else:
        verdict = verify_campaign(home_dir(home), campaign, jobs)
    if verdict.failure is not None:
        _fail(verdict.failure)
    if not verdict.steps:
        typer.echo(f"{campaign}: 0 steps verified (none is resolved yet, so there is no state hash to check); the "
                   "log replays and the dice secret matches its commitment")
        return
    typer.echo(f"{campaign}: {verdict.steps} steps verified, state hash {verdict.last_hash}")
    for engine, count in sorted(verdict.engines.items()):
        if engine != verdict.engine:
            typer.echo(f"  {count} of them resolved by {engine}: replayed by {verdict.engine}, "
                       f"their recorded hashes stand")


@app.command()
def run(once: bool = typer.Option(False, "--once", help="Process what waits, send what is due, and exit."),
        json_logs: bool = typer.Option(False, "--json-logs", help="Log JSON lines instead of key=value."),
        home: Optional[Path] = HomeOption) -> None:
    """The mail daemon: read orders (IMAP IDLE or Maildir), answer, pass deadlines, send reports."""
    stats = serve(home_dir(home), once=once, json_logs=json_logs)
    if once:
        typer.echo(f"{stats.received} mails read, {stats.sent} mails sent")
    if stats.failed:
        typer.echo(f"error: the daemon stopped: {stats.failed}", err=True)
        raise typer.Exit(1)


@app.command()
def backup(destination: Path = typer.Argument(..., help="A new directory for the copy."),
           home: Optional[Path] = HomeOption) -> None:
    """A consistent copy of the home's stores, safe while `pbem run` keeps writing."""
    directory = home_dir(home)
    for line in backup_home(directory, destination, _existing(directory).store):
        typer.echo(line)


@app.command()
def restore(backup_dir: Path = typer.Argument(..., help="The directory `pbem backup` wrote."),
            forget_unrecorded: bool = typer.Option(False, "--forget-unrecorded",
                                                   help="Have mails that the backup's mail state marks handled but "
                                                        "its campaign store lacks read again when offered."),
            home: Optional[Path] = HomeOption) -> None:
    """Restore a backup into a home without stores, checking first that every mail its mail
    state marks handled is in its campaign store (else nothing is restored)."""
    for line in restore_home(backup_dir, home_dir(home), forget_unrecorded=forget_unrecorded):
        typer.echo(line)


@app.command()
def health(max_age: Optional[float] = typer.Option(None, "--max-age", help="Seconds the daemon's last heartbeat "
                                                   "may be old (default: three clock ticks, at least 300)."),
           home: Optional[Path] = HomeOption) -> None:
    """Whether `pbem run`'s loop is alive in this home: exit 0 if its heartbeat is fresh, 1 if
    not (for a container's HEALTHCHECK or a monitor)."""
    from pbem.mail.daemon import HEARTBEAT
    from pbem.mail.maildir import UNREADABLE
    from pbem.mail.settings import load_settings

    directory = home_dir(home)
    settings = load_settings(directory)
    limit = max_age if max_age is not None else max(300.0, 3 * settings.tick_seconds)
    try:
        age = time.time() - (directory / HEARTBEAT).stat().st_mtime
    except FileNotFoundError:
        typer.echo(f"unhealthy: no daemon runs in {directory} (no {HEARTBEAT})", err=True)
        raise typer.Exit(1) from None
    if age > limit:
        typer.echo(f"unhealthy: the daemon's loop last beat {age:.0f} s ago (more than {limit:.0f} s)", err=True)
        raise typer.Exit(1)
    typer.echo(f"healthy: the daemon's loop beat {age:.0f} s ago")
    if settings.maildir is not None and (aside := settings.maildir / UNREADABLE).is_dir() and any(aside.iterdir()):
        typer.echo(f"note: entries of the inbox that were no readable mail wait in {aside}: look at them, then "
                   "move a mail back into new/ or delete it")


@app.command()
def report(campaign: str,
           power: Optional[str] = typer.Option(None, "--power", help="The report of the player holding this power."),
           player: Optional[str] = typer.Option(None, "--player", help="The report of this player."),
           public: bool = typer.Option(False, "--public", help="The public gazette."),
           gm: bool = typer.Option(False, "--gm", help="The GM's report: everything, every roll and hash."),
           upto: Optional[str] = typer.Option(None, "--step", help="As it stood after this resolved step."),
           turn: Optional[int] = typer.Option(None, "--turn", help="As it stood at the end of this game turn."),
           fmt: str = typer.Option("text", "--format", help="text, html or json."),
           home: Optional[Path] = HomeOption) -> None:
    """Render a report of a campaign as a player, the public or the GM sees it."""
    from pbem.reports import render_report

    if fmt not in ("text", "html", "json"):
        _fail(f"--format is text, html or json, not {fmt!r}")
    if sum(bool(x) for x in (power, player, public, gm)) != 1:
        _fail("say whose report: one of --power P, --player ID, --public, --gm")
    service = _existing(home)
    heading = None
    # The GM's report lists every step, so it replays the whole log rather than start at a snapshot.
    projection = service.loader.load(campaign, use_snapshots=not gm)
    if upto is not None or turn is not None:
        history = service.loader.load(campaign, use_snapshots=False).resolved
        wanted = [s for s in history if (s.step == upto if upto is not None
                                         else projection.ruleset.turn_of(s.step) == turn)]
        if not wanted:
            _fail(f"no resolved step {upto or f'of turn {turn}'} in {campaign} (see `pbem replay {campaign}`)")
        version = wanted[-1].version
        projection = service.loader.load(campaign, upto=version, use_snapshots=not gm)
        if turn is not None:
            # A turn's last step may already have moved the game's calendar on (Ratio Regis's
            # turn end starts the next turn): the heading names the turn asked for, as the
            # game labelled it while that turn was played.
            playing = service.loader.load(campaign, upto=wanted[0].version, use_snapshots=not gm)
            heading = f"{playing.game_view('public').turn_label or f'turn {turn}'}, at its end"
    viewer = "gm" if gm else "public" if public else player
    if power is not None:
        holder = projection.game_view("public").owner(power)
        if not holder:
            _fail(f"no player holds power {power!r} in {campaign} at this point (powers are held once chosen; "
                  "--player ID gives a player's report)")
        viewer = holder
    if viewer not in ("gm", "public") and viewer not in projection.data.players:
        _fail(f"{viewer!r} is not a player of {campaign}")
    typer.echo(render_report(projection, viewer, fmt, heading=heading, boards=home_dir(home) / "boards"))


def _master(home: Optional[Path]):
    from pbem.core.gm import GameMaster

    return GameMaster(_existing(home))


def _gm_done(home: Optional[Path], outcome, text: str) -> None:
    queue_mail(home, outcome.mail)
    typer.echo(text)


ReasonOption = typer.Option(..., "--reason", help="Why (announced to the players and kept in the log).")


@gm_app.command("pause")
def gm_pause(campaign: str, reason: str = ReasonOption, home: Optional[Path] = HomeOption) -> None:
    """Pause: orders are still taken, nothing is processed, no deadline passes."""
    _gm_done(home, _master(home).pause(campaign, reason), f"{campaign} paused")


@gm_app.command("resume")
def gm_resume(campaign: str, reason: str = ReasonOption, home: Optional[Path] = HomeOption) -> None:
    """Resume; the step in progress gets back the time it had left."""
    _gm_done(home, _master(home).resume(campaign, reason), f"{campaign} resumed")


@gm_app.command("extend", context_settings={"ignore_unknown_options": True})  # `-24` is hours, not an option
def gm_extend(campaign: str, hours: int = typer.Argument(..., help="Hours to add (negative: shorten)."),
              reason: str = ReasonOption, home: Optional[Path] = HomeOption) -> None:
    """Move the current deadline."""
    _gm_done(home, _master(home).extend(campaign, hours, reason), f"{campaign}: deadline moved by {hours} hours")


@gm_app.command("process")
def gm_process(campaign: str, reason: str = ReasonOption, home: Optional[Path] = HomeOption) -> None:
    """Process the current step now, as if its deadline (and grace) had passed."""
    outcome = _master(home).process(campaign, reason)
    _gm_done(home, outcome, f"{campaign}: processed, {outcome.steps_resolved} steps resolved")


@gm_app.command("replace")
def gm_replace(campaign: str, player: str, address: str,
               name: Optional[str] = typer.Option(None, "--name", help="The new player's name."),
               reason: str = ReasonOption, home: Optional[Path] = HomeOption) -> None:
    """Give a player's place to someone new (new address, new token)."""
    token, outcome = _master(home).replace(campaign, player, address, new_name=name, reason=reason)
    _gm_done(home, outcome, f"{player} replaced; SIGNON {player} {campaign} {token}")


@gm_app.command("token")
def gm_token(campaign: str, player: str, reason: str = ReasonOption, home: Optional[Path] = HomeOption) -> None:
    """Give a player a new SIGNON token (tell them yourself: it is not mailed)."""
    token, outcome = _master(home).rotate_token(campaign, player, reason)
    _gm_done(home, outcome, f"SIGNON {player} {campaign} {token}")


@gm_app.command("observer")
def gm_observer(campaign: str, observer: str, address: str, home: Optional[Path] = HomeOption) -> None:
    """Add an observer, who receives the public gazette."""
    token, outcome = _master(home).observer(campaign, observer, address)
    _gm_done(home, outcome, f"observer added; SIGNON {observer} {campaign} {token}")


@gm_app.command("ruling")
def gm_ruling(campaign: str, kind: str, args: list[str] = typer.Argument(None, help="name=value arguments."),
              reason: str = ReasonOption, home: Optional[Path] = HomeOption) -> None:
    """A typed change of the state, as the ruleset defines it (`pbem gm rulings` lists them)."""
    values = {}
    for pair in args or []:
        key, sep, value = pair.partition("=")
        if not sep:
            _fail(f"ruling arguments are name=value, not {pair!r}")
        values[key] = value
    _gm_done(home, _master(home).ruling(campaign, kind, values, reason), f"ruling {kind} applied to {campaign}")


@gm_app.command("rulings")
def gm_rulings(campaign: str, home: Optional[Path] = HomeOption) -> None:
    """The rulings this campaign's ruleset knows."""
    ruleset = _existing(home).projection(campaign).ruleset
    for kind, description in sorted(ruleset.rulings.items()):
        typer.echo(f"{kind:<20} {description}")


@gm_app.command("rollback")
def gm_rollback(campaign: str, step: str = typer.Argument(..., help="The last resolved step to keep "
                                                                    "(`start`: back to the beginning)."),
                release: bool = typer.Option(False, "--release", help="Do it (without: show what it undoes only)."),
                reason: str = ReasonOption, home: Optional[Path] = HomeOption) -> None:
    """Back to just after a resolved step; later facts are superseded, never deleted. What
    it undoes first, then `--release` to make it so."""
    master = _master(home)
    if not release:
        typer.echo("\n".join(master.rollback_preview(campaign, step).lines()))
        typer.echo("(a preview: nothing changed; add --release to roll back)")
        return
    _gm_done(home, master.rollback(campaign, step, reason), f"{campaign} rolled back to after {step}")


@gm_app.command("reprocess")
def gm_reprocess(campaign: str, step: str = typer.Argument(..., help="Rerun everything after this resolved step "
                                                                     "(`start`: from the beginning)."),
                 replace: list[str] = typer.Option([], "--replace",
                                                   help="VERSION=FILE: the order set at that log version, corrected."),
                 add: list[str] = typer.Option([], "--add", help="PLAYER=FILE: an order set to add before the rest."),
                 ruling: Optional[str] = typer.Option(None, "--ruling", help="KIND:name=value,… applied first."),
                 release: bool = typer.Option(False, "--release", help="Do it (without: show the diff only)."),
                 reason: str = ReasonOption, home: Optional[Path] = HomeOption) -> None:
    """Rerun from a step with corrected orders, a ruling or this engine version: a diff
    first, then `--release` to make it so (announced as a rerun)."""
    from pbem.core.gm import Correction

    corrections = []
    for item in replace:
        version, sep, path = item.partition("=")
        if not sep or not version.isdigit():
            _fail(f"--replace takes VERSION=FILE, not {item!r}")
        events = _existing(home).loader.campaign_events(campaign, gt=int(version) - 1, lte=int(version))
        event = next(iter(events), None)
        if not isinstance(event, (Campaign.OrdersSubmitted, Campaign.OrdersRejected)):
            _fail(f"log version {version} of {campaign} is not an order set (see `pbem replay --explain`)")
        corrections.append(Correction(event.player, Path(path).read_text(encoding="utf-8"), int(version)))
    for item in add:
        player, sep, path = item.partition("=")
        if not sep:
            _fail(f"--add takes PLAYER=FILE, not {item!r}")
        corrections.append(Correction(player, Path(path).read_text(encoding="utf-8")))
    rule = None
    if ruling:
        kind, _, pairs = ruling.partition(":")
        rule = (kind, dict(p.split("=", 1) for p in pairs.split(",") if "=" in p))
    master = _master(home)
    if not release:
        typer.echo("\n".join(master.preview(campaign, step, corrections, rule).lines()))
        typer.echo("(a preview: nothing changed; add --release to rerun)")
        return
    _gm_done(home, master.reprocess(campaign, step, reason, corrections, rule), f"{campaign}: rerun released")


@gm_app.command("dice", context_settings={"ignore_unknown_options": True})  # `-3` is a (refused) value
def gm_dice(campaign: str, purpose: str = typer.Argument(..., help="The dice purpose, e.g. combat."),
            values: list[int] = typer.Argument(..., help="The results, in order."),
            reason: str = ReasonOption, home: Optional[Path] = HomeOption) -> None:
    """Force the next rolls of a purpose (a face-to-face session being imported)."""
    _gm_done(home, _master(home).force_dice(campaign, purpose, values, reason),
             f"{campaign}: next {purpose} dice {' '.join(map(str, values))}")


@gm_app.command("reveal")
def gm_reveal(campaign: str, reason: str = ReasonOption, home: Optional[Path] = HomeOption) -> None:
    """Reveal the dice secret once the campaign is over: anyone can then recompute every roll."""
    _gm_done(home, _master(home).reveal(campaign, reason), f"{campaign}: dice secret revealed")


@dice_app.command("verify")
def dice_verify(campaign: Optional[str] = typer.Argument(None, help="A campaign of the home (with --secret)."),
                secret: Optional[str] = typer.Option(None, "--secret", help="The revealed secret (hex)."),
                log: Optional[Path] = typer.Option(None, "--log", help="A public log (`pbem export C --public`) "
                                                   "instead of the home: no store needed."),
                home: Optional[Path] = HomeOption) -> None:
    """Recompute every roll from the revealed secret and check the commitment."""
    from pbem.core.dice import commitment, recompute

    if log is not None:
        from pbem.resources.verify_dice import check

        try:
            ok, lines = check(json.loads(log.read_text(encoding="utf-8")))
        except (ValueError, KeyError, TypeError, LookupError) as error:
            _fail(f"{log}: {error}")
        if not ok:
            _fail(f"{log}: {lines[0]}")
        typer.echo("\n".join(lines))
        return
    if campaign is None or secret is None:
        _fail("give a CAMPAIGN and --secret HEX, or --log FILE")
    try:
        key = bytes.fromhex(secret)
    except ValueError:
        _fail("--secret is the hex string the GM revealed")
    projection = _existing(home).loader.load(campaign, use_snapshots=False)
    if commitment(key) != projection.data.commitment:
        _fail(f"sha256 of that secret is {commitment(key)[:16]}…, not the campaign's commitment "
              f"{projection.data.commitment[:16]}…")
    checked = 0
    for step in projection.resolved:
        for roll in step.result.rolls:
            if roll.forced:
                continue
            if recompute(key, roll.as_dict()) != roll.value:
                _fail(f"roll {roll.key} in step {step.step} does not follow from the secret")
            checked += 1
    typer.echo(f"{campaign}: the secret matches the commitment; {checked} rolls recomputed, all match")


@app.command()
def export(campaign: str,
           public: bool = typer.Option(False, "--public", help="The public record: results, dice records, "
                                       "commitment, and the secret once revealed."),
           out: Optional[Path] = typer.Option(None, "--out", help="Write it here (default: standard output)."),
           home: Optional[Path] = HomeOption) -> None:
    """Export a campaign's public log, for any player to check the dice without the GM's store
    (`pbem dice verify --log FILE`, or pbem/resources/verify_dice.py with plain Python)."""
    from pbem.core.public_log import public_log

    if not public:
        _fail("only the public log can be exported: pbem export CAMPAIGN --public")
    text = json.dumps(public_log(_existing(home).loader.load(campaign, use_snapshots=False)),
                      indent=1, ensure_ascii=False) + "\n"
    if out is None:
        typer.echo(text, nl=False)
        return
    out.write_text(text, encoding="utf-8")
    typer.echo(f"{campaign}: public log written to {out}")


@case_app.command("run")
def case_run(paths: list[Path] = typer.Argument(..., help="Case files or directories of them.")) -> None:
    """Run cases; the last line says `N passed, N failed`."""
    passed = failed = 0
    for path in case_files(paths):
        try:
            result = run_case(parse_case(path))
        except CaseFormatError as error:
            typer.echo(f"FAIL {path}: {error}")
            failed += 1
            continue
        if result.passed:
            passed += 1
            typer.echo(f"ok   {result.case.name}  [{' '.join(result.case.rules)}]")
        else:
            failed += 1
            typer.echo(f"FAIL {result.case.name}")
            for failure in result.failures:
                typer.echo(f"     {failure}")
    typer.echo(f"{passed} passed, {failed} failed")
    if failed:
        raise typer.Exit(1)


@scenario_map_app.command("import-vassal")
def scenario_map_import_vassal(
        module: Path,
        board: str = typer.Option(..., "--board", help="The board's name in the module."),
        campaign: Optional[str] = typer.Option(
            None, "--campaign", help="Match the campaign's areas; the board goes to <home>/boards/<campaign>."),
        scenario: Optional[Path] = typer.Option(None, "--scenario", help="Or match this scenario file's areas."),
        ruleset: str = typer.Option("ratio-regis", "--ruleset", help="The scenario file's ruleset."),
        out: Optional[Path] = typer.Option(None, "--out", help="Where to write the board (default: the campaign's)."),
        review: Optional[Path] = typer.Option(None, "--review", help="The review file with the GM's matches."),
        home: Optional[Path] = HomeOption) -> None:
    """Read a VASSAL module's board (its regions and zones, and its image), match them to
    the areas by name, write the board file and its image, and print the review table;
    edit the review file for the areas left unmatched and run again with --review."""
    from pbem.reports.boards import REVIEW_FILE, BoardError, import_board  # the reports' own boards
    from pbem.reports.models import game_map

    if (campaign is None) == (scenario is None):
        _fail("say whose areas to match: --campaign NAME or --scenario FILE")
    if campaign is not None:
        projection = build_service(home).projection(campaign)
        areas, target = projection.ruleset.scenario_map(projection.scenario), home_dir(home) / "boards" / campaign
    else:
        game = rulesets.load(ruleset)
        areas, target = game.scenario_map(game.load_scenario(load_data_file(scenario))), None
    folder = out or target
    if folder is None:
        _fail("say where to write the board: --out DIR (a campaign's is <home>/boards/<campaign>)")
    try:
        table = import_board(module, board, game_map(areas), folder, review)
    except BoardError as error:
        _fail(str(error))
    typer.echo(table)
    typer.echo(f"board written to {folder}; edit {folder / REVIEW_FILE} for the unmatched areas and run again "
               f"with --review {folder / REVIEW_FILE}")


@scenario_app.command("check")
def scenario_check(file: Path, ruleset: str = typer.Option("ratio-regis", "--ruleset"),
                   draw: Optional[Path] = typer.Option(None, "--draw", help="Also draw the map as SVG here.")) -> None:
    """Validate a scenario file and report every problem found."""
    game = rulesets.load(ruleset)
    scenario = game.load_scenario(load_data_file(file))
    problems = game.check_scenario(scenario)
    for problem in problems:
        typer.echo(f"{file}: {problem}")
    if draw is not None:
        from pbem.reports.maps import draw_map  # the reports' own drawing

        draw.write_text(draw_map(game.scenario_map(scenario)), encoding="utf-8")
        typer.echo(f"map drawn to {draw}")
    if problems:
        raise typer.Exit(1)
    typer.echo(f"{file}: valid {ruleset} scenario")


@app.command()
def demo(ruleset: str = typer.Option("ratio-regis", "--ruleset", help="The game."),
         example: str = typer.Option("demo", "--example", help="Which example campaign of that game "
                                                                "(examples/<ruleset>/<example>/)."),
         out: Path = typer.Option(Path("demo-out"), "--out", help="Where the home and the reports go.")) -> None:
    """Play an example campaign from examples/ through the mail path; reports go under OUT."""
    from pbem.tools.demo import run_demo

    summary = run_demo(ruleset, out, example)
    typer.echo(summary)


#: What the `bench` extra of pyproject.toml brings.
BENCH_EXTRA_MODULES = ("aiosmtpd", "psycopg", "psycopg_pool")


@contextmanager
def _bench_extra(bench: str) -> Iterator[None]:
    """Around a bench's imports: the servers and drivers it needs come with pbem's `bench`
    extra, and a GM without it is told so rather than shown a missing module."""
    try:
        yield
    except ModuleNotFoundError as error:
        module = (error.name or "").partition(".")[0]
        if module not in BENCH_EXTRA_MODULES:
            raise
        raise Failure(f"`pbem bench {bench}` needs {module}, which pbem's bench extra installs: "
                      "pip install 'pbem[bench]' (in a checkout: PBEM_EXTRAS=bench bash scripts/setup.sh)") from None


@examples_app.command("list")
def examples_list() -> None:
    """The example scenarios and campaigns of each ruleset (`pbem examples copy` copies them)."""
    from pbem.tools.examples import example_campaigns, example_rulesets, example_scenarios

    for ruleset in example_rulesets():
        typer.echo(f"{ruleset}  (pbem examples copy {ruleset})")
        for scenario in example_scenarios(ruleset):
            typer.echo(f"  scenario  {scenario}")
        for example in example_campaigns(ruleset):
            typer.echo(f"  campaign  {example.name + '/':<10} {example.mails:>3} mails on {example.scenario}  "
                       f"(pbem demo --ruleset {ruleset} --example {example.name})")


@examples_app.command("copy")
def examples_copy(ruleset: str = typer.Argument(..., help="Whose examples, e.g. ratio-regis."),
                  destination: Optional[Path] = typer.Argument(None, help="A new or empty folder (default: "
                                                                           "./RULESET).")) -> None:
    """Copy a ruleset's example scenarios and campaigns into a folder, to follow or edit."""
    from pbem.tools.examples import copy_examples

    typer.echo(f"copied the {ruleset} examples to {copy_examples(ruleset, destination or Path(ruleset))}")


@bench_app.command("replay")
def bench_replay(as_json: bool = typer.Option(False, "--json", help="Print JSON."),
                 events: int = typer.Option(100_000, "--events", help="Size of the generated campaign."),
                 ruleset: str = typer.Option("ratio-regis", "--ruleset")) -> None:
    """Replay speed, replay vs read ratio, append cost and its growth, peak memory."""
    from pbem.tools.replay_bench import run_replay_bench

    result = run_replay_bench(ruleset, events)
    _print_figures(result, as_json)


@bench_app.command("roundtrips")
def bench_roundtrips(as_json: bool = typer.Option(False, "--json", help="Print JSON."),
                     example: str = typer.Option("queued", "--example", help="The example campaign to play."),
                     ruleset: str = typer.Option("ratio-regis", "--ruleset")) -> None:
    """Per game turn, every time the example stopped until a mail came (steps opening, decisions
    asked inside a step, pauses) and the mails it took, beside the same game sent step by step
    and with every decision asked by mail."""
    from pbem.tools.roundtrips_bench import run_roundtrips_bench, side_by_side

    figures = run_roundtrips_bench(ruleset, example)
    if as_json:
        _print_figures(figures, as_json)
        return
    for line in side_by_side(figures):
        typer.echo(line)


@bench_app.command("mail")
def bench_mail(as_json: bool = typer.Option(False, "--json", help="Print JSON."),
               mails: int = typer.Option(200, "--mails", help="Mails in the throughput burst.")) -> None:
    """Latency from delivery into Dovecot to the receipt at the SMTP server, and mails/s,
    through the real campaign service (starts its own Dovecot and SMTP server)."""
    with _bench_extra("mail"):
        from pbem.mail.bench import run_mail_bench
        from pbem.tools.mail_bench import mail_bench_handler

    result = run_mail_bench(mails, handler_factory=mail_bench_handler)
    _print_figures(result, as_json)


@bench_app.command("intake")
def bench_intake(as_json: bool = typer.Option(False, "--json", help="Print JSON."),
                 inputs: int = typer.Option(100_000, "--inputs", help="Mutated mails to try."),
                 seed: int = typer.Option(0, "--seed", help="Seed of the mutations (the run is deterministic).")) -> None:
    """Real-client mail read exactly (the corpus), and mutated mail, order lines and scenarios
    never escaping as an exception, one mail in 100 through the real campaign service."""
    import tempfile
    import tomllib

    from pbem.mail.intakebench import FuzzTarget, run_intake_bench
    from pbem.rules.ratio_regis.orders import OrderSyntaxError, parse_line
    from pbem.tools.examples import EXAMPLES
    from pbem.tools.mail_bench import mail_bench_handler

    game = rulesets.load("ratio-regis")
    grammar = FuzzTarget("ratio-regis orders", ("FRA I BUILD TROOP Q2 AT Paris", "FRA II MOVE TROOP FROM Paris TO Lyon"),
                         parse_line, (OrderSyntaxError,), takes_lines=True)
    scenario = FuzzTarget("ratio-regis scenario", ((EXAMPLES / "ratio-regis" / "scenario.toml").read_text(),),
                          lambda text: game.check_scenario(game.load_scenario(tomllib.loads(text))),
                          (tomllib.TOMLDecodeError, ScenarioError), every=20)
    with tempfile.TemporaryDirectory(prefix="pbem-intakebench-") as home:
        result = run_intake_bench(inputs, seed=seed, targets=[grammar, scenario], handler=mail_bench_handler(Path(home)))
    _print_figures(result, as_json)


@bench_app.command("report")
def bench_report(as_json: bool = typer.Option(False, "--json", help="Print JSON."),
                 turns: int = typer.Option(20, "--turns", help="Turns to play."),
                 example: str = typer.Option("", "--example",
                                             help="Play this example campaign's mails instead (e.g. war-demo)."),
                 ruleset: str = typer.Option("ratio-regis", "--ruleset", help="The example's ruleset."),
                 reports: str = typer.Option("", "--reports",
                                             help="The campaign's reports setting: when-owed (the default) or "
                                                  "every-step."),
                 store: str = typer.Option("sqlite", "--store",
                                           help="sqlite (the embedded default, in a scratch directory) or "
                                                "memory.")) -> None:
    """Adjudication time against the time to render every report the campaign mails."""
    from pbem.core.settings import REPORT_MODES
    from pbem.tools.report_bench import STORES, run_example_bench, run_report_bench

    if reports and reports not in REPORT_MODES:
        raise Failure(f"--reports {reports}: choose {' or '.join(REPORT_MODES)}")
    if store not in STORES:
        raise Failure(f"--store {store}: choose {' or '.join(STORES)}")
    result = (run_example_bench(ruleset, example, reports or None, store) if example
              else run_report_bench(turns, reports=reports or REPORT_MODES[0], store=store))
    _print_figures(result, as_json)


@bench_app.command("reliability")
def bench_reliability(as_json: bool = typer.Option(False, "--json", help="Print JSON."),
                      mails: int = typer.Option(1000, "--mails", help="Player mails delivered."),
                      hours: int = typer.Option(25, "--hours", help="Hours of virtual time the clock runs (each "
                                                                      "clock campaign passes one deadline an hour)."),
                      clocks: int = typer.Option(4, "--clocks", help="Campaigns only the clock moves."),
                      kills: int = typer.Option(10, "--kills", help="SIGKILLs at least (more while mail arrives).")
                      ) -> None:
    """The daemon SIGKILLed at random over mails and deadlines (real Dovecot and SMTP),
    against an uninterrupted run: lost, duplicated and differing replies, state hashes."""
    with _bench_extra("reliability"):
        from pbem.tools.reliability_bench import run_reliability_bench

    _print_figures(run_reliability_bench(mails, hours, clocks, min_kills=kills), as_json)


@bench_app.command("scale")
def bench_scale(as_json: bool = typer.Option(False, "--json", help="Print JSON."),
                campaigns: int = typer.Option(1000, "--campaigns", help="Live campaigns in the store."),
                workers: int = typer.Option(3, "--workers", help="`pbem run` workers sharing the store."),
                homes: int = typer.Option(1, "--homes", help="Homes the workers run in, as on so many machines "
                                                             "(sharing only the PostgreSQL database)."),
                mails: int = typer.Option(2000, "--mails", help="Player mails arriving at once."),
                postgres: str = typer.Option("host=127.0.0.1 port=54329 user=pbem password=pbem", "--postgres",
                                             help="The PostgreSQL server (libpq key=value; scripts/test.sh's by "
                                                  "default); a fresh database is made and dropped.")) -> None:
    """Many live campaigns on PostgreSQL and several workers: mails/s and latency."""
    with _bench_extra("scale"):
        from pbem.tools.scale_bench import run_scale_bench

    _print_figures(run_scale_bench(campaigns, workers, mails, postgres=postgres, homes=homes), as_json)


def main() -> None:
    try:
        # Outside standalone mode the CLI library returns a command's exit code instead of exiting.
        status = app(standalone_mode=False)
        if isinstance(status, int) and status:
            sys.exit(status)
    except Failure as error:
        typer.echo(f"error: {error}", err=True)
        sys.exit(2)
    except USER_ERRORS as error:
        typer.echo(f"error: {_one_line(error)}", err=True)
        sys.exit(2)

    except typer.Exit as done:
        sys.exit(done.exit_code)
    except (typer.Abort, KeyboardInterrupt):
        typer.echo("aborted", err=True)
        sys.exit(130)
    except Exception as error:  # the promise: never a traceback for the user
        if hasattr(error, "show") and hasattr(error, "exit_code"):  # a usage error from the CLI library
            error.show()
            sys.exit(error.exit_code)
        damage = store_damage(error) if isinstance(error, (sqlite3.DatabaseError, PersistenceError)) else None
        if damage is not None:
            typer.echo(f"error: {damage}", err=True)
            sys.exit(2)
        if os.environ.get("PBEM_DEBUG"):
            raise
        typer.echo(f"internal error: {type(error).__name__}: {error} (set PBEM_DEBUG=1 for details)", err=True)
        sys.exit(70)


def _one_line(error: Exception) -> str:
    if isinstance(error, ValidationError):
        first = error.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        return f"{where}: {first['msg']}" + (f" (and {error.error_count() - 1} more)" if error.error_count() > 1 else "")
    if isinstance(error, ScenarioError):
        return "the scenario is not valid: " + "; ".join(error.problems[:5])
    if isinstance(error, OSError) and error.filename is not None and error.strerror:
        return f"{error.filename}: {error.strerror}"  # `… is a directory`, not `[Errno 21] …`
    return str(error)
