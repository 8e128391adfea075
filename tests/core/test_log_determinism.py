"""The campaign log is a function of the mail and the clock's facts alone: a campaign held
in memory between mails (the daemon's) and ticked by the clock in between records the same
facts as one reloaded for each mail (issue "The daemon under operational faults", item 2)."""

from __future__ import annotations

from pathlib import Path

from pbem.app import build_service
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
