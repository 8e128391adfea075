"""The campaign log is a function of the mail and the clock's facts alone: a campaign held
in memory between mails (the daemon's) and ticked by the clock in between records the same
facts as one reloaded for each mail, and the GM's report tells the same whether the process
was just started or has run for months (issue "The daemon under operational faults", items
2 and 3)."""

from __future__ import annotations

from pathlib import Path

from pbem.app import build_service
from pbem.reports.models import build_report
from pbem.tools.examples import deliver_example, demo_dir


def played_log(home: Path, ticks_between_mails: int) -> list[tuple[str, str]]:
    service = build_service(home)
    name = ""
    for delivery in deliver_example(service, demo_dir("ratio-regis", "playbook")):
        name = delivery.campaign
        for _ in range(ticks_between_mails):
            service.tick()  # the deadlines are days away: a tick has nothing to record
    return [(type(event).__name__, getattr(event, "key", "")) for event in service.loader.campaign_events(name)]


def test_clock_ticks_between_mails_record_no_policy_answer_again(tmp_path: Path) -> None:
    quiet = played_log(tmp_path / "quiet", 0)
    ticked = played_log(tmp_path / "ticked", 3)
    answered = [key for kind, key in ticked if kind == "DecisionAnswered"]
    assert len(answered) == len(set(answered)), "each policy answer recorded once"
    assert ticked == quiet


def test_the_gm_reports_audit_is_the_same_after_a_restart(tmp_path: Path) -> None:
    service = build_service(tmp_path)
    name = ""
    for delivery in deliver_example(service, demo_dir("ratio-regis", "playbook")):
        name = delivery.campaign
    held = service.live(name)  # the long-lived daemon's, trimmed to what reports may still tell
    since = held.data.reported_through.get("gm", 0)
    restarted = build_service(tmp_path).projection(name)  # a fresh process loads the log again
    audits = [build_report(p, "gm", since_version=since).audit for p in (held, restarted)]
    assert audits[0].hashes and audits[0].hashes == audits[1].hashes
    assert all(h.version > since for h in audits[1].hashes)
