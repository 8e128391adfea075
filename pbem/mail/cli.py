"""The mail commands as a typer sub-app: `run [--once]` and `bench [--json] [--mails N]`.

`make_app(handler_factory)` builds the sub-app for the main `pbem` command; the functions
`run_mail` and `bench_mail` take the home directory and the handler factory explicitly, so
the composition root decides which service answers the mail. Bad settings end with one
line on stderr and exit code 2, never a traceback.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path

import typer

from pbem.mail.bench import echo_handler, run_mail_bench
from pbem.mail.daemon import TickHook, run
from pbem.mail.imap import SourceError
from pbem.mail.intake import MailHandler
from pbem.mail.localservers import ServerUnavailable
from pbem.mail.logs import configure_logging
from pbem.mail.settings import MailSettingsError, load_settings

HandlerFactory = Callable[[Path], MailHandler]


def run_mail(home: Path, handler_factory: HandlerFactory, *, once: bool = False, json_logs: bool = False,
             on_tick: TickHook | None = None) -> int:
    """Run the daemon for `home`; returns the process exit code."""
    configure_logging(as_json=json_logs)
    try:
        settings = load_settings(home)
        stats = run(settings, handler_factory(home), once=once, on_tick=on_tick)
    except (MailSettingsError, SourceError) as error:
        print(f"pbem mail: {error}", file=sys.stderr)
        return 2
    if once:
        print(f"{stats.received} mails read, {stats.sent} mails sent")
    if stats.failed:
        print(f"pbem mail: stopped: {stats.failed}", file=sys.stderr)
        return 1
    return 0


def bench_mail(handler_factory: HandlerFactory = echo_handler, *, mails: int = 200, as_json: bool = False) -> int:
    """Run the mail bench (needs Dovecot); prints the figures."""
    try:
        result = run_mail_bench(mails, handler_factory=handler_factory)
    except ServerUnavailable as error:
        print(f"pbem bench mail: {error}", file=sys.stderr)
        return 2
    if as_json:
        print(json.dumps(result))
    else:
        print(f"latency median {result['median_s']:.3f} s, p95 {result['p95_s']:.3f} s "
              f"(IDLE, {result['latency_samples']} mails); {result['mails_per_s']:.0f} mails/s "
              f"({result['answered']} of {result['mails']} answered in a burst)")
    return 0


def make_app(handler_factory: HandlerFactory, *, bench_handler_factory: HandlerFactory = echo_handler,
             default_home: Path = Path("pbem-home")) -> typer.Typer:
    app = typer.Typer(help="The mail daemon and its bench.", no_args_is_help=True)

    @app.command("run")
    def run_command(once: bool = typer.Option(False, "--once", help="Process what waits, send what is due, exit."),
                    json_logs: bool = typer.Option(False, "--json-logs", help="JSON lines instead of key=value."),
                    home: Path = typer.Option(default_home, "--home", envvar="PBEM_HOME")) -> None:
        """Read orders (IMAP IDLE or Maildir), answer them, send what is due."""
        raise typer.Exit(run_mail(home, handler_factory, once=once, json_logs=json_logs))

    @app.command("bench")
    def bench_command(as_json: bool = typer.Option(False, "--json", help="Print JSON."),
                      mails: int = typer.Option(200, "--mails", min=1, help="Mails in the throughput burst.")) -> None:
        """Delivery → receipt latency (IMAP IDLE) and mails/s, against a private Dovecot + SMTP."""
        raise typer.Exit(bench_mail(bench_handler_factory, mails=mails, as_json=as_json))

    return app
