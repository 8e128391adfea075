"""The report side on a real game: the example scenario played by players who reply to
every report with its order form (the defaults), on an in-memory store with fixed dice.

The goldens cover the first reports (dice commitment, first decisions) and the GM's and
public reports at the end; the leak oracle runs over every log version.
"""

from __future__ import annotations

import os
import tomllib
from datetime import datetime, timezone
from pathlib import Path

import pytest

from pbem.core.service import CampaignService, PlayerSpec
from pbem.core.store import open_store
from pbem.reports.models import TOKEN_PLACEHOLDER, build_report
from pbem.reports.renderer import MailRenderer, render_report

from tests.reports.helpers import CHROMIUM, assert_golden, browser_measure, hidden_from
from tests.reports.test_leaks import check_no_leaks

SCENARIO = Path(__file__).parents[2] / "examples" / "ratio-regis" / "scenario.toml"
PLAYERS = [PlayerSpec(id="p1", name="Anne", address="anne@example.org", timezone="Europe/Paris", token="t1"),
           PlayerSpec(id="p2", name="Blaise", address="blaise@example.org", timezone="Europe/London", token="t2"),
           PlayerSpec(id="p3", name="Claude", address="claude@example.org", timezone="America/Chicago", token="t3")]


@pytest.fixture(scope="module")
def rr():
    service = CampaignService(open_store(env={"PERSISTENCE_MODULE": "eventsourcing.popo"}),
                              renderer=MailRenderer(from_address="gm@example.org"),
                              clock=lambda: datetime(2026, 11, 20, 12, tzinfo=timezone.utc))
    data = tomllib.loads(SCENARIO.read_text())
    _, outcome = service.create("rr-demo", "ratio-regis", data, PLAYERS, secret=bytes(32))
    first = service.projection("rr-demo").data.version
    mail = list(outcome.mail)
    for _ in range(2000):
        projection = service.projection("rr-demo")
        owing = [p.id for p in PLAYERS if projection.pending_for(p.id)]
        if projection.finished or not owing:
            break
        form = build_report(projection, owing[0]).order_form
        outcome = service.submit("rr-demo", owing[0], form.replace(TOKEN_PLACEHOLDER, "t" + owing[0][1:]))
        assert outcome.receipt.accepted, outcome.receipt
        mail.extend(outcome.mail)
    return service, first, mail


def test_rr_first_reports_and_final_gm_public_match_golden(rr):
    service, first, mail = rr
    for item in mail[:len(PLAYERS)]:
        assert_golden("ratio-regis", item.key + ".txt", f"To: {item.to}\nSubject: {item.subject}\n\n{item.text}")
        assert_golden("ratio-regis", item.key + ".html", item.html)
        forms = {line for o in build_report(service.projection("rr-demo", upto=first), PLAYERS[0].id).owed
                 for line in o.form.splitlines()}  # order lines are the ruleset's, kept whole
        assert all(len(line) <= 72 for line in item.text.splitlines() if line not in forms)
    projection = service.projection("rr-demo")
    for viewer in ("gm", "public"):
        assert_golden("ratio-regis", f"{viewer}.txt", render_report(projection, viewer, "text", since_version=0))
        assert_golden("ratio-regis", f"{viewer}.html", render_report(projection, viewer, "html", since_version=0))


def test_rr_reports_never_leak(rr):
    service, first, mail = rr
    assert check_no_leaks(service, "rr-demo", first, formats=("text", "json")) > 100
    by_address = {p.address: p.id for p in PLAYERS}
    for item in mail:
        if item.key.startswith("report:"):
            upto = int(item.key.split(":")[2])
            secrets = hidden_from(service.projection("rr-demo", upto=upto), by_address[item.to])
            assert not [s for s in secrets if s in item.text or s in (item.html or "")], item.key


@pytest.mark.skipif(CHROMIUM is None and not os.environ.get("CI"), reason="chromium not installed")
@pytest.mark.parametrize("viewer", ["p1", "gm"])
def test_rr_html_fits_800px(rr, viewer, tmp_path):
    service, _, _ = rr
    html = render_report(service.projection("rr-demo"), viewer, "html", since_version=0)
    result = browser_measure(html)
    assert result["broken"] == [] and result["scrollWidth"] <= 800
