"""The campaign service `pbem bench mail` measures the mail layer with (the bench itself,
`pbem.mail.bench`, takes any handler)."""

from __future__ import annotations

from functools import partial
from pathlib import Path

from pbem.app import build_service
from pbem.core.datafile import load_data_file
from pbem.core.inbox import handle_mail
from pbem.core.service import PlayerSpec
from pbem.mail.intake import MailHandler
from pbem.tools.examples import EXAMPLES


def mail_bench_handler(home: Path) -> MailHandler:
    """The real campaign service for `pbem bench mail`: a fresh home with the example
    campaign the bench mails sign on to (`SIGNON fra ratio-demo s3cret`), so every mail
    goes through authentication, order reading, the event store and a rendered receipt."""
    service = build_service(home, from_address="gm@pbem.test")
    scenario = load_data_file(EXAMPLES / "ratio-regis" / "scenario.toml")
    players = [PlayerSpec(id="fra", address="fra@pbem.test", token="s3cret"),
               PlayerSpec(id="hug", address="hug@pbem.test", token="hug"),
               PlayerSpec(id="eng", address="eng@pbem.test", token="eng")]
    service.create("ratio-demo", "ratio-regis", scenario, players)
    return partial(handle_mail, service)
