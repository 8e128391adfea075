"""`pbem bench roundtrips`: how many times each game turn stopped until a mail came (issues 16, 35).

It plays an example campaign (`examples/<ruleset>/<example>/`) mail by mail on an in-memory
store and counts, per game turn as the ruleset names it (`Ruleset.turn_name`: a turn, a Round,
a month), every stop that waited for a mail, read from the facts the clock recorded:

- a step that opened for people (`StepOpened`; a sealed batch is one stop however many answer it),
- a decision asked inside a step already waiting (`StepAsked`: a reaction, a battle decision, a
  call to an ally, a consent),
- a pause, which only the GM's mail ends (`Paused`);

and the mails it took, each counted in the turn of the step it came in.

Beside the play it puts the same game played otherwise, so a saving is measured side by side:

- `sent_step_by_step`: the example the campaign.toml names (`sent_step_by_step = "<example>"`),
  the same play written one mail per decision asked;
- `every_decision_by_mail`, when a standing policy, a conditional line or a queued block answered
  anything: the campaign created again (so with the same dice) where nothing answers but a mail —
  at each stop every player who owes a decision mails what the play answered — and the GM's mails
  come at the steps they came in. It stops where the play stopped, and its state hash is the
  play's unless the two diverged.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem.core.campaign import Campaign
from pbem.core.datafile import load_data_file
from pbem.core.ruleset import Ruleset
from pbem.core.service import CampaignService, CommandError
from pbem.core.store import open_store
from pbem.tools.examples import Delivery, create_example, deliver_example, deliver_mail, demo_dir

SETUP = "set-up"  # the steps before the first game turn
EVERY_DECISION_BY_MAIL = "every decision asked by mail"
ENDED = "after the end"  # a mail that came when no step was left

#: The facts that say the campaign stopped until a mail came, and what the figures call each.
STOPS = {Campaign.StepOpened: "step opened", Campaign.StepAsked: "asked inside a step",
         Campaign.Paused: "paused by the GM"}


def run_roundtrips_bench(ruleset: str, example: str) -> dict:
    """The example's stops and mails per game turn, beside the same game sent step by step (when
    its campaign.toml names that example) and with every decision asked by mail (when anything
    answered without a mail)."""
    source = demo_dir(ruleset, example)
    play = play_example(source)
    figures = play.figures()
    twin = load_data_file(source / "campaign.toml").get("sent_step_by_step")
    if twin:
        figures["sent_step_by_step"] = play_example(demo_dir(ruleset, twin)).figures()
    if play.answered_without_mail:
        figures["every_decision_by_mail"] = play_by_mail(source, play).figures()
    return figures


def turn_label(ruleset: Ruleset, step: str | None) -> str:
    """The game turn of a step as the ruleset names it: `turn 6`, `month 3`."""
    if step is None:
        return ENDED
    turn = ruleset.turn_of(step)
    return SETUP if turn is None else f"{ruleset.turn_name} {turn}"


@dataclass
class Stops:
    """Per game turn: the stops that waited for a mail, those of them asked inside a step, and
    the steps resolved; and every stop by its cause."""

    waits: Counter[str] = field(default_factory=Counter)
    asked: Counter[str] = field(default_factory=Counter)
    steps: Counter[str] = field(default_factory=Counter)
    causes: Counter[str] = field(default_factory=Counter)
    turns: list[str] = field(default_factory=list)  # in the order the game reached them

    def reached(self, label: str) -> str:
        """`label`, noted as a turn the game reached."""
        if label not in self.turns:
            self.turns.append(label)
        return label


def count_stops(ruleset: Ruleset, facts: Iterable[Any]) -> Stops:
    """Every time a campaign's log says it stopped until a mail came, per game turn. A pause
    counts in the turn of the last step the log named before it."""
    stops = Stops()
    step = None
    for fact in facts:
        if isinstance(fact, (Campaign.StepOpened, Campaign.StepAsked, Campaign.StepResolved)):
            step = fact.step
        cause = STOPS.get(type(fact))
        if cause is not None:
            label = stops.reached(SETUP if step is None else turn_label(ruleset, step))
            stops.waits[label] += 1
            stops.causes[cause] += 1
            if isinstance(fact, Campaign.StepAsked):
                stops.asked[label] += 1
        elif isinstance(fact, Campaign.StepResolved):
            stops.steps[stops.reached(turn_label(ruleset, fact.step))] += 1
    return stops


@dataclass
class Play:
    """An example campaign played: its log, the mails it took (each by the step it came in) and
    how it ended."""

    example: str
    ruleset: Ruleset
    facts: list[Any]
    mails: list[str | None]
    finished: bool
    state_hash: str
    deliveries: list[Delivery] = field(default_factory=list)
    played: str = "as mailed"

    @property
    def answered_without_mail(self) -> bool:
        """Whether a standing policy, a conditional line, a queued block or a deadline's default
        answered anything."""
        return any(isinstance(f, (Campaign.DecisionAnswered, Campaign.QueuedOrdersUsed)) for f in self.facts)

    def answers(self) -> dict[str, Any]:
        """Every answer the play recorded, by decision key (a later one replaces an earlier, as
        the fold reads them)."""
        answers: dict[str, Any] = {}
        for fact in self.facts:
            if isinstance(fact, Campaign.DecisionAnswered):
                answers[fact.key] = fact.value
            elif isinstance(fact, (Campaign.OrdersSubmitted, Campaign.QueuedOrdersUsed)):
                answers.update(fact.answers)
        return answers

    def figures(self) -> dict:
        stops = count_stops(self.ruleset, self.facts)
        mails = Counter(turn_label(self.ruleset, step) for step in self.mails)
        turns = [*stops.turns, *(label for label in mails if label not in stops.turns)]
        return {
            "ruleset": self.ruleset.name,
            "example": self.example,
            "played": self.played,
            "turn_name": self.ruleset.turn_name,
            "turns": sum(label not in (SETUP, ENDED) for label in turns),
            "finished": self.finished,
            "state_hash": self.state_hash,
            "mails": len(self.mails),
            "waits": sum(stops.waits.values()),
            "steps": sum(stops.steps.values()),
            "waits_by_cause": {cause: stops.causes[cause] for cause in STOPS.values()},
            "waits_per_turn": {label: stops.waits[label] for label in turns},
            "asked_inside_a_step_per_turn": {label: stops.asked[label] for label in turns},
            "mails_per_turn": {label: mails[label] for label in turns},
            "steps_per_turn": {label: stops.steps[label] for label in turns},
        }


def _service() -> CampaignService:
    return CampaignService(open_store(env={"PERSISTENCE_MODULE": "eventsourcing.popo"}))


def play_example(source: Path, upto: int | None = None) -> Play:
    """The example campaign of `source` played mail by mail (the first `upto`)."""
    service = _service()
    deliveries = list(deliver_example(service, source, upto))
    name = deliveries[0].campaign if deliveries else load_data_file(source / "campaign.toml")["name"]
    projection = service.projection(name)
    return Play(source.name, projection.ruleset, list(service.loader.campaign_events(name)),
                [d.step for d in deliveries], projection.finished, projection.data.last_hash, deliveries)


def play_by_mail(source: Path, play: Play) -> Play:
    """The game `play` played with every decision asked by mail: nothing but a mail answers — at
    each stop every player who owes mails, one mail each, what the play answered — and the
    GM's mails come at the steps they came in during the play."""
    service = _service()
    name, players, _ = create_example(service, source)
    masters = {p.id for p in players if p.role == "gm"}
    answers = play.answers()
    gm_mails = [d for d in play.deliveries if d.by_gm]
    mails: list[str | None] = []
    while True:
        step = service.live(name).step
        if gm_mails and gm_mails[0].step == step:
            deliver_mail(service, name, source / gm_mails.pop(0).mail, masters)
            mails.append(step)
            continue
        with service.session(name) as session:
            owing = [r for r in session.projection.pending() if r.key in answers]
            for request in (r for r in owing if r.player == owing[0].player):
                session.record(session.campaign.answer, key=request.key, value=answers[request.key],
                               source=f"mail of {request.player} (every decision asked by mail)")
        if not owing:  # the end of the game, or where the play stopped
            break
        mails.append(step)
    if gm_mails:
        raise CommandError(f"{source.name}: the GM's mail {gm_mails[0].mail} came at {gm_mails[0].step}, which the "
                           "play with every decision asked by mail never stopped at")
    projection = service.projection(name)
    return Play(source.name, projection.ruleset, list(service.loader.campaign_events(name)), mails,
                projection.finished, projection.data.last_hash, played=EVERY_DECISION_BY_MAIL)


def side_by_side(figures: dict) -> list[str]:
    """The figures as a table: per game turn, the stops that waited for a mail (and the mails
    taken) of the play and of each way of playing it beside it."""
    plays = [figures, *(figures[key] for key in ("sent_step_by_step", "every_decision_by_mail") if key in figures)]
    turns = list(dict.fromkeys(label for play in plays for label in play["waits_per_turn"]))
    names = [play["example"] if play["played"] != EVERY_DECISION_BY_MAIL else "all by mail" for play in plays]
    width = max(len(name) for name in names)
    lines = [f"{figures['ruleset']}: stops that waited for a mail (mails taken), per {figures['turn_name']}",
             f"{'':<16}" + "".join(f"  {name:>{width}}" for name in names)]
    for label in [*turns, "all"]:
        cells = [(play["waits"], play["mails"]) if label == "all"
                 else (play["waits_per_turn"].get(label, 0), play["mails_per_turn"].get(label, 0)) for play in plays]
        lines.append(f"{label:<16}" + "".join(f"  {f'{w} ({m})':>{width}}" for w, m in cells))
    lines.append(f"{'state hash':<16}" + "".join(f"  {play['state_hash'][:12]:>{width}}" for play in plays))
    return lines
