"""`pbem bench roundtrips`: how many times a turn waited for a mail (issue 16).

It plays an example campaign (`examples/<ruleset>/<example>/`) mail by mail on an
in-memory store and counts, per game turn, the steps that opened to wait for a person
(`StepOpened`) against the steps resolved. The demo sends every impulse in its own mail;
the `queued` example sends the same play with the impulses queued, so comparing the two
shows what queued orders save.
"""

from __future__ import annotations

from pbem.core.campaign import Campaign
from pbem.core.datafile import load_data_file
from pbem.core.service import CampaignService
from pbem.core.store import open_store
from pbem.tools.examples import deliver_example, demo_dir

SETUP = "set-up"  # the steps before the first game turn


def run_roundtrips_bench(ruleset: str, example: str) -> dict:
    """The example's waits per game turn; when its campaign.toml names the same play sent step
    by step (`sent_step_by_step = "<example>"`), that one's too, under `without_queues`."""
    figures = _play(ruleset, example)
    twin = load_data_file(demo_dir(ruleset, example) / "campaign.toml").get("sent_step_by_step")
    if twin:
        other = _play(ruleset, twin)
        figures["without_queues"] = {key: other[key] for key in ("example", "mails", "waits", "waits_per_turn",
                                                                 "state_hash")}
    return figures


def _play(ruleset: str, example: str) -> dict:
    service = CampaignService(open_store(env={"PERSISTENCE_MODULE": "eventsourcing.popo"}))
    deliveries = list(deliver_example(service, demo_dir(ruleset, example)))
    name = deliveries[0].campaign if deliveries else example
    projection = service.projection(name)
    turn_of = projection.ruleset.turn_of
    waits: dict[str, int] = {}
    steps: dict[str, int] = {}
    for fact in service.loader.campaign_events(name):
        if isinstance(fact, (Campaign.StepOpened, Campaign.StepResolved)):
            turn = turn_of(fact.step)
            label = SETUP if turn is None else str(turn)
            table = waits if isinstance(fact, Campaign.StepOpened) else steps
            table[label] = table.get(label, 0) + 1
    turns = [label for label in steps if label != SETUP]
    return {
        "example": example,
        "mails": len(deliveries),
        "turns": len(turns),
        "steps": sum(steps.values()),
        "waits": sum(waits.values()),
        "waits_per_turn": {label: waits.get(label, 0) for label in [SETUP, *turns] if label in steps},
        "steps_per_turn": dict(steps),
        "finished": projection.finished,
        "state_hash": projection.data.last_hash,
    }
