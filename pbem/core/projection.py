"""The projector: a pure fold from a campaign's facts to its state, the decisions
still owed, per-player views and the chronicle (DESIGN §1, §3).

`ProjectionData` is plain data (snapshotted and hashed); `CampaignProjection` wraps it
with the ruleset and the scenario and runs the current step through the decision engine.
Resolving a step is re-running its procedure over the answers collected for it; a
`StepResolved` fact carries the hash the re-run must reproduce.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar

import msgspec

from pbem.core.campaign import Campaign, PlayerRecord, PolicyRecord
from pbem.core.canonical import StructCodec, sha256_hex
from pbem.core.decisions import kinds_of
from pbem.core.orders import Alternative
from pbem.core.queues import QueuedBlock
from pbem.core.engine import Answer, ChronicleEntry, Policy, Request, StepContext, StepResult, run_step
from pbem.core.ruleset import Ruleset, Seat
from pbem.core.settings import CampaignSettings
from pbem.core.view import GameView, read_view
from pbem.core.state_edits import StateEdit, apply_edits

# Part of the engine version that keys snapshots: raised whenever the fold changes, so a
# snapshot folded by older code is never resumed (2: whom each step waits for, report mailing; 3: queued orders).
CORE_VERSION = "3"


def engine_version(ruleset: Ruleset) -> str:
    """What a step is resolved by, recorded with it: the ruleset, its version and the fold's."""
    return f"{ruleset.name}/{ruleset.version}+core{CORE_VERSION}"


class StepClock(msgspec.Struct, frozen=True):
    """When a step started waiting for people and when it may be processed."""

    kind: str
    opened: str
    earliest: str


class QueueNote(msgspec.Struct, frozen=True):
    """A queued block used or dropped, told in its player's and the GM's next report."""

    version: int
    player: str
    text: str


class ProjectionData(msgspec.Struct):
    """Everything the fold carries between facts (the snapshot's content)."""

    campaign: str
    ruleset: str
    options: dict[str, Any]
    settings: dict[str, Any]
    commitment: str
    version: int = 0
    players: dict[str, PlayerRecord] = {}
    policies: list[PolicyRecord] = []
    forced: dict[str, list[int]] = {}
    state: bytes | None = None
    step: str | None = None
    steps_resolved: int = 0
    last_hash: str = ""
    inputs: dict[str, Answer] = {}  # the current step's answers, as the engine reads them
    conditional: list[PolicyRecord] = []
    deadlines: dict[str, str] = {}
    deadlines_passed: list[str] = []
    opened: dict[str, StepClock] = {}
    graces_expired: list[str] = []
    reminders: dict[str, list[int]] = {}
    ready: dict[str, list[str]] = {}
    misses: dict[str, int] = {}
    missed_in: dict[str, list[str]] = {}
    excused: dict[str, int] = {}
    civil_disorder: list[str] = []
    dropped: list[str] = []
    absences: dict[str, list[tuple[str, str]]] = {}
    paused: bool = False
    paused_at: str | None = None
    paused_reason: str | None = None
    rerun_from: str | None = None
    revealed_secret: str | None = None
    policy_counter: int = 0
    queued: list[QueuedBlock] = []  # queued orders not yet used, in the order they were queued
    queue_counter: int = 0
    queue_notes: list[QueueNote] = []
    # The steps in progress at which a player's queued block was dropped, and its kind: no
    # other block of theirs of that kind answers that step (it was written for a later one).
    queue_dropped: dict[str, list[tuple[str, str]]] = {}
    # Report mailing (the `reports` setting): the decisions each open step has asked, the
    # turn of the last step asked from, how far each viewer's reports have told, and who is
    # due one from where (and at which log version that was decided).
    asked: dict[str, list[str]] = {}
    report_turn: int | None = None
    reported_through: dict[str, int] = {}
    reports_due: dict[str, int] = {}
    reports_due_at: int = 0


_snapshot_codec = StructCodec(ProjectionData)
encode_snapshot = _snapshot_codec.encode
decode_snapshot = _snapshot_codec.decode


@dataclass(frozen=True)
class ResolvedStep:
    """A step as it was resolved: its key, version in the log, result and hash, and the
    engine version its `StepResolved` fact records (an earlier pbem's, after an upgrade)."""

    step: str
    version: int
    result: StepResult
    state_hash: str
    recorded_hash: str
    engine_version: str
    queue_notes: tuple[str, ...] = ()  # queued blocks used or dropped while the step was open
    start: bytes | None = None  # the encoded state the step began from (kept, not copied)


@dataclass(frozen=True)
class StepGivens:
    """What every run of a step is given from the players: their seats, their standing
    policies and the step's conditional lines, and whose powers run by their defaults."""

    seats: dict[str, Seat]
    policies: tuple[Policy, ...]
    by_default: dict[str, str]


@dataclass(frozen=True)
class Divergence:
    step: str
    version: int
    recorded: str
    computed: str
    reason: str = ""


_Handler = TypeVar("_Handler", bound=Callable[..., None])
_HANDLERS: dict[type, Callable[..., None]] = {}


def _folds(fact: type) -> Callable[[_Handler], _Handler]:
    """Marks the method that folds `fact` (one of `Campaign`'s fact classes); a fact with
    no method changes only the log version."""
    def register(handler: _Handler) -> _Handler:
        _HANDLERS[fact] = handler
        return handler
    return register


class CampaignProjection:
    """A campaign's projected state, folded fact by fact."""

    def __init__(self, ruleset: Ruleset, scenario: Any, data: ProjectionData, secret: bytes):
        self.ruleset = ruleset
        self.scenario = scenario
        self.data = data
        self.settings = CampaignSettings.model_validate(data.settings)  # fixed when the campaign was created
        self.secret = secret
        self.resolved: list[ResolvedStep] = []
        self.divergences: list[Divergence] = []
        self.events_folded = 0
        self.loaded_version = 0
        self.keep_history = True  # False: only the latest state (verify, benches, long-lived services)
        self.history_from = 0  # `resolved` holds every step resolved after this log version
        self._run: tuple[StepResult, Any] | None = None
        self._pristine: Any | None = None
        self._run_valid = False
        self._kinds = kinds_of(ruleset)
        self._givens: StepGivens | None = None  # built from `data`, dropped by the facts that change it
        self._last_resolved = 0  # log version of the last step resolved in this fold

    @property
    def engine_version(self) -> str:
        return engine_version(self.ruleset)

    # -- the fold ---------------------------------------------------------
    def apply(self, event: Any) -> None:
        """Fold one fact."""
        handler = _HANDLERS.get(type(event))
        if handler is not None:
            handler(self, event)
        self.data.version = event.originator_version
        self.events_folded += 1

    def apply_all(self, events: Iterable[Any]) -> None:
        for event in events:
            self.apply(event)

    def _invalidate(self) -> None:
        self._run_valid = False

    def _players_changed(self) -> None:
        """A fact changed the players, their policies, the conditional lines or who is run
        by defaults: the next step's givens are built again."""
        self._givens = None

    def reset(self, data: ProjectionData) -> None:
        """Stand on other data (a snapshot, or the state a rollback returns to)."""
        self.data = data
        self._pristine = None
        self._players_changed()
        self._invalidate()

    @_folds(Campaign.PlayerJoined)
    def _on_player_joined(self, e: Campaign.PlayerJoined) -> None:
        self.data.players[e.player] = PlayerRecord(e.player, e.name, e.address, e.token_hash, e.timezone, e.role)
        self._players_changed()

    @_folds(Campaign.TokenRotated)
    def _on_token_rotated(self, e: Campaign.TokenRotated) -> None:
        old = self.data.players[e.player]
        self.data.players[e.player] = msgspec.structs.replace(old, token_hash=e.token_hash)

    @_folds(Campaign.OrdersSubmitted)
    def _on_orders_submitted(self, e: Campaign.OrdersSubmitted) -> None:
        source = f"orders of {e.player}"
        for key, value in e.answers.items():
            self.data.inputs[key] = Answer(value, source)
        if e.conditional:
            self.data.conditional.extend(e.conditional)
            self._players_changed()
        self._invalidate()

    @_folds(Campaign.PolicySet)
    def _on_policy_set(self, e: Campaign.PolicySet) -> None:
        self.data.policies = [p for p in self.data.policies if p.id != e.policy_id]
        self.data.policies.append(PolicyRecord(e.policy_id, e.player, e.kind, e.answer_text, e.text, e.power,
                                               [tuple(c) for c in e.conditions]))
        self.data.policy_counter += 1
        self._players_changed()
        self._invalidate()

    @_folds(Campaign.PolicyCleared)
    def _on_policy_cleared(self, e: Campaign.PolicyCleared) -> None:
        self.data.policies = [p for p in self.data.policies
                              if not (p.player == e.player and e.policy_id in (p.id, "ALL"))]
        self._players_changed()
        self._invalidate()

    @_folds(Campaign.OrdersQueued)
    def _on_orders_queued(self, e: Campaign.OrdersQueued) -> None:
        block = QueuedBlock(e.queue_id, e.player, e.kind, e.power, e.turn, e.not_for,
                            msgspec.convert(e.alternatives, list[Alternative]))
        queued = self.data.queued
        at = next((i for i, b in enumerate(queued) if b.id == e.queue_id and b.player == e.player), None)
        if at is None:
            queued.append(block)
            self.data.queue_counter += 1
        else:  # a replaced block keeps its place in the queue
            queued[at] = block

    @_folds(Campaign.QueueCleared)
    def _on_queue_cleared(self, e: Campaign.QueueCleared) -> None:
        self.data.queued = [b for b in self.data.queued
                            if not (b.player == e.player and e.queue_id in (b.id, "ALL"))]

    @_folds(Campaign.QueuedOrdersUsed)
    def _on_queued_orders_used(self, e: Campaign.QueuedOrdersUsed) -> None:
        self._spend_queued(e.player, e.queue_id, e.originator_version,
                           f"queued orders {e.queue_id} answered {e.step} (alternative {e.alternative + 1})")
        source = f"queued orders {e.queue_id} of {e.player}"
        for key, value in e.answers.items():
            self.data.inputs[key] = Answer(value, source)
        if e.conditional:
            self.data.conditional.extend(e.conditional)
            self._players_changed()
        self._invalidate()

    @_folds(Campaign.QueuedOrdersDropped)
    def _on_queued_orders_dropped(self, e: Campaign.QueuedOrdersDropped) -> None:
        block = next((b for b in self.data.queued if b.player == e.player and b.id == e.queue_id), None)
        if block is not None:
            self.data.queue_dropped.setdefault(e.step, []).append((e.player, block.kind))
        self._spend_queued(e.player, e.queue_id, e.originator_version,
                           f"queued orders {e.queue_id} dropped at {e.step}: {e.reason}")

    def _spend_queued(self, player: str, queue_id: str, version: int, note: str) -> None:
        self.data.queued = [b for b in self.data.queued if not (b.player == player and b.id == queue_id)]
        self.data.queue_notes.append(QueueNote(version, player, note))

    @_folds(Campaign.DecisionAnswered)
    def _on_decision_answered(self, e: Campaign.DecisionAnswered) -> None:
        self.data.inputs[e.key] = Answer(e.value, e.source)
        last = self._run[0] if self._run_valid and self._run is not None else None
        if last is None or not any(u.request.key == e.key and u.answer.value == e.value for u in last.used):
            self._invalidate()
            return
        # The run stays valid, but its answer is a fact now: not one to record again (the
        # next piece of work on a campaign held in memory — a clock tick — recorded it as
        # often as it came, so the log depended on when ticks fell).
        last.used = tuple(msgspec.structs.replace(u, recorded=True) if u.request.key == e.key else u
                          for u in last.used)

    @_folds(Campaign.StepOpened)
    def _on_step_opened(self, e: Campaign.StepOpened) -> None:
        self.data.opened[e.step] = StepClock(e.kind, e.opened, e.earliest)
        self.data.deadlines[e.step] = e.deadline
        players, requests = self._opened_for(e)
        self.data.asked[e.step] = requests
        self._reports_due(e.step, players, e.originator_version)

    def _opened_for(self, e: Campaign.StepOpened) -> tuple[list[str], list[str]]:
        """Whom and which decisions a step opened for. A log written before pbem recorded
        them (upcast to None) is read from the step itself, which the replay has run to
        the same point."""
        if e.players is not None and e.requests is not None:
            return list(e.players), list(e.requests)
        pending = self.pending()
        return sorted({r.player for r in pending}), [r.key for r in pending]

    @_folds(Campaign.StepAsked)
    def _on_step_asked(self, e: Campaign.StepAsked) -> None:
        self.data.asked[e.step] = [*self.data.asked.get(e.step, []), *e.requests]
        self._reports_due(e.step, e.players, e.originator_version)

    def _reports_due(self, step: str, owing: list[str], version: int) -> None:
        """Who is due a report now that `step` waits for `owing`: they, and everybody when
        the step begins a new turn; each report tells what happened since that viewer's
        last one. Kept in the fold, so who was mailed what follows from the facts and a
        replay decides the same."""
        data = self.data
        turn = self.ruleset.turn_of(step)
        new_turn = turn is not None and turn != data.report_turn
        if turn is not None:
            data.report_turn = turn
        due = list(data.players) if new_turn else [p for p in data.players if p in owing]
        data.reports_due = {p: data.reported_through.get(p, 0) for p in due}
        data.reported_through = {**data.reported_through, **dict.fromkeys(due, version)}
        data.reports_due_at = version

    @_folds(Campaign.DeadlineChanged)
    def _on_deadline_changed(self, e: Campaign.DeadlineChanged) -> None:
        self.data.deadlines[e.step] = e.at
        # A new deadline reopens a passed one (an extension or an excused miss).
        self.data.deadlines_passed = [s for s in self.data.deadlines_passed if s != e.step]
        self.data.graces_expired = [s for s in self.data.graces_expired if s != e.step]
        self.data.reminders.pop(e.step, None)

    @_folds(Campaign.DeadlinePassed)
    def _on_deadline_passed(self, e: Campaign.DeadlinePassed) -> None:
        if e.step not in self.data.deadlines_passed:
            self.data.deadlines_passed.append(e.step)

    @_folds(Campaign.GraceExpired)
    def _on_grace_expired(self, e: Campaign.GraceExpired) -> None:
        if e.step not in self.data.graces_expired:
            self.data.graces_expired.append(e.step)

    @_folds(Campaign.ReminderSent)
    def _on_reminder_sent(self, e: Campaign.ReminderSent) -> None:
        self.data.reminders.setdefault(e.step, []).append(e.hours_before)

    @_folds(Campaign.MissRecorded)
    def _on_miss_recorded(self, e: Campaign.MissRecorded) -> None:
        self.data.misses[e.player] = self.data.misses.get(e.player, 0) + 1
        key = f"{e.step}@{self.data.deadlines.get(e.step, '')}"
        self.data.missed_in.setdefault(key, []).append(e.player)
        if e.action == "excused":
            self.data.excused[e.player] = self.data.excused.get(e.player, 0) + 1
        elif e.action == "civil-disorder" and e.player not in self.data.civil_disorder:
            self.data.civil_disorder.append(e.player)
            self._players_changed()
        elif e.action == "dropped" and e.player not in self.data.dropped:
            self.data.dropped.append(e.player)
            self._players_changed()
        self._invalidate()

    @_folds(Campaign.PlayerReady)
    def _on_player_ready(self, e: Campaign.PlayerReady) -> None:
        ready = self.data.ready.setdefault(e.step, [])
        if e.player not in ready:
            ready.append(e.player)

    @_folds(Campaign.AbsenceDeclared)
    def _on_absence_declared(self, e: Campaign.AbsenceDeclared) -> None:
        self.data.absences.setdefault(e.player, []).append((e.start, e.end))

    @_folds(Campaign.Paused)
    def _on_paused(self, e: Campaign.Paused) -> None:
        self.data.paused, self.data.paused_at, self.data.paused_reason = True, e.at, e.reason

    @_folds(Campaign.Resumed)
    def _on_resumed(self, e: Campaign.Resumed) -> None:
        self.data.paused, self.data.paused_at, self.data.paused_reason = False, None, None

    @_folds(Campaign.PlayerReplaced)
    def _on_player_replaced(self, e: Campaign.PlayerReplaced) -> None:
        old = self.data.players[e.player]
        self.data.players[e.player] = msgspec.structs.replace(old, name=e.name, address=e.address,
                                                              token_hash=e.token_hash)
        self._players_changed()
        self._back_in_play(e.player)

    @_folds(Campaign.PlayerReturned)
    def _on_player_returned(self, e: Campaign.PlayerReturned) -> None:
        self._back_in_play(e.player)

    def _back_in_play(self, player: str) -> None:
        """A player who sends orders again, or a new player, is no longer run by defaults."""
        if player in self.data.civil_disorder or player in self.data.dropped:
            self.data.civil_disorder = [p for p in self.data.civil_disorder if p != player]
            self.data.dropped = [p for p in self.data.dropped if p != player]
            self._players_changed()
            self._invalidate()

    @_folds(Campaign.RerunStarted)
    def _on_rerun_started(self, e: Campaign.RerunStarted) -> None:
        self.data.rerun_from = e.from_step

    @_folds(Campaign.GMRuling)
    def _on_gm_ruling(self, e: Campaign.GMRuling) -> None:
        state = self.state()
        self.ruleset.apply_ruling(state, self.scenario, e.kind, dict(e.args))
        self.data.state = self.ruleset.encode_state(state)
        self._invalidate()

    @_folds(Campaign.StateSet)
    def _on_state_set(self, e: Campaign.StateSet) -> None:
        state = apply_edits(self.ruleset, self.state(), [StateEdit.from_dict(edit) for edit in e.edits])
        self.data.state = self.ruleset.encode_state(state)
        self._invalidate()

    @_folds(Campaign.DiceForced)
    def _on_dice_forced(self, e: Campaign.DiceForced) -> None:
        self.data.forced.setdefault(e.purpose, []).extend(e.values)
        self._invalidate()

    @_folds(Campaign.SeedRevealed)
    def _on_seed_revealed(self, e: Campaign.SeedRevealed) -> None:
        self.data.revealed_secret = e.secret

    @_folds(Campaign.StepResolved)
    def _on_step_resolved(self, e: Campaign.StepResolved) -> None:
        result, state = self.current()
        if result is None or result.step != e.step or not result.completed:
            computed = "incomplete" if result is not None and not result.completed else "no such step"
            self.divergences.append(Divergence(e.step, e.originator_version, e.state_hash, computed,
                                               f"the step did not resolve on replay ({computed})"
                                               + self._engines_differ(e)))
            return
        encoded = self.ruleset.encode_state(state)
        digest = sha256_hex(encoded)
        if digest != e.state_hash:
            self.divergences.append(Divergence(e.step, e.originator_version, e.state_hash, digest,
                                               "state hash differs" + self._engines_differ(e)))
        if self.keep_history:
            notes = tuple(n.text for n in self.data.queue_notes if n.version > self._last_resolved)
            self.resolved.append(ResolvedStep(e.step, e.originator_version, result, digest, e.state_hash,
                                              e.engine_version, notes, self.data.state))
        self._last_resolved = e.originator_version
        self.data.state = encoded
        self._pristine = state
        self.data.last_hash = digest
        self.data.steps_resolved += 1
        self.data.inputs = {}
        if self.data.conditional:
            self.data.conditional = []
            self._players_changed()
        self.data.forced = {k: list(v) for k, v in result.forced_left.items()}
        self.data.step = None
        if self.data.queue_notes:
            told = min(self.data.reported_through.values(), default=0)
            self.data.queue_notes = [n for n in self.data.queue_notes if n.version > told]
        self._forget_clock(e.step)
        self._invalidate()

    def _engines_differ(self, e: Campaign.StepResolved) -> str:
        """A divergence's note when another engine version resolved the step (pbem was upgraded)."""
        if e.engine_version == self.engine_version:
            return ""
        return f" (resolved by {e.engine_version}, replayed by {self.engine_version})"

    def _forget_clock(self, step: str) -> None:
        """A resolved step's deadline bookkeeping is done with: dropping it keeps the
        projection (and each snapshot) the same size however long the campaign runs."""
        data = self.data
        for table in (data.deadlines, data.opened, data.reminders, data.ready, data.asked, data.queue_dropped):
            table.pop(step, None)
        if step in data.deadlines_passed:
            data.deadlines_passed = [s for s in data.deadlines_passed if s != step]
        if step in data.graces_expired:
            data.graces_expired = [s for s in data.graces_expired if s != step]
        if data.missed_in:
            data.missed_in = {k: v for k, v in data.missed_in.items() if not k.startswith(step + "@")}

    # -- running the current step -----------------------------------------
    def seats(self) -> list[Seat]:
        return [Seat(p.id, p.name) for p in self.data.players.values() if p.role == "player"]

    def state(self) -> Any:
        """A fresh copy of the state after the last resolved step."""
        if self._pristine is not None:
            # The object a step just resolved into equals the encoded state: the first
            # caller may have it instead of a decoded copy (replays run one step per step).
            pristine, self._pristine = self._pristine, None
            return pristine
        if self.data.state is None:
            initial = self.ruleset.initial_state(self.scenario, self.data.options, self.seats())
            self.data.state = self.ruleset.encode_state(initial)
        return self.ruleset.decode_state(self.data.state)

    def current(self) -> tuple[StepResult | None, Any]:
        """Run the current step over the answers so far: (result, state after the run).
        The result is None when the game is over."""
        if self._run_valid and self._run is not None:
            return self._run
        state = self.state()
        step = self.ruleset.next_step(state, self.scenario)
        if step is None:
            self._run = (None, state)
        else:
            self.data.step = step.key
            givens = self._givens or self._build_givens()
            ctx = StepContext(
                campaign=self.data.campaign,
                step=step.key,
                secret=self.secret,
                answers=self.data.inputs,
                policies=givens.policies,
                answer_policy=self._kinds.answer_policy,
                by_default=givens.by_default,
                forced=self.data.forced,
                scenario=self.scenario,
                seats=givens.seats,
                step_start=partial(self.ruleset.decode_state, self.data.state),  # what `state` was decoded from
            )
            self._run = (run_step(step.procedure, state, ctx), state)
        self._run_valid = True
        return self._run

    def _build_givens(self) -> StepGivens:
        """The givens of the steps to come, kept until a fact changes them (a replay runs a
        step for every step resolved; few facts touch the players or their policies)."""
        data = self.data
        self._givens = StepGivens(
            seats={seat.id: seat for seat in self.seats()},
            policies=tuple(record.policy() for record in data.policies + data.conditional),
            by_default={p: ("dropped after missed deadlines" if p in data.dropped else "in civil disorder")
                        for p in data.civil_disorder + data.dropped},
        )
        return self._givens

    # -- what the players see ---------------------------------------------
    @property
    def step(self) -> str | None:
        """The key of the step in progress (None when the game is over)."""
        result = self.current()[0]
        return None if result is None else result.step

    @property
    def finished(self) -> bool:
        return self.current()[0] is None

    def pending(self) -> tuple[Request, ...]:
        result = self.current()[0]
        return () if result is None or result.completed else result.pending

    def pending_for(self, player: str) -> list[Request]:
        return [r for r in self.pending() if r.player == player]

    def answerable_for(self, player: str) -> list[Request]:
        """What `player` may answer now: what they owe, and their answers to a sealed
        batch that is not yet revealed (a later answer replaces an earlier one)."""
        result = self.current()[0]
        if result is None:
            return []
        found = {r.key: r for r in result.answerable if r.player == player}
        for used in result.used:  # a sealed answer in a step held open (earliest processing)
            if used.request.sealed and used.request.player == player:
                found.setdefault(used.request.key, used.request)
        return list(found.values())

    def view(self, viewer: str) -> dict:
        """The state as `viewer` may see it (`gm`, `public` or a player id)."""
        return self.ruleset.view(self.current()[1], self.scenario, viewer)

    def game_view(self, viewer: str) -> GameView:
        """What pbem itself reads of `viewer`'s view (powers and their holders, sections,
        map); raises `ViewError` when the ruleset's view does not keep that contract."""
        return read_view(self.view(viewer))

    def forget_history(self, upto: int) -> None:
        """Drop the resolved steps up to log version `upto` (a long-lived service keeps
        only what its next reports may still tell)."""
        self.resolved = [r for r in self.resolved if r.version > upto]
        self.history_from = max(self.history_from, upto)

    def view_before(self, viewer: str, since_version: int) -> dict | None:
        """`viewer`'s view as it was at log version `since_version`: at the start of the
        first step resolved after it (a report's map draws what moved since), or None when
        that step is no longer held or the state has not changed since."""
        first = next((r for r in self.resolved if r.version > since_version), None)
        if first is None or first.start is None:
            return None
        return self.ruleset.view(self.ruleset.decode_state(first.start), self.scenario, viewer)

    def chronicle(self, viewer: str, since_version: int = 0) -> list[ChronicleEntry]:
        """What `viewer` may read of the steps resolved after `since_version` and of the
        step in progress."""
        entries = [c for r in self.resolved if r.version > since_version for c in r.result.chronicle]
        result = self.current()[0]
        if result is not None and not result.completed:
            entries.extend(result.chronicle)
        return [c for c in entries if c.visible(viewer)]

    def status(self) -> dict:
        pending = self.pending()
        return {
            "campaign": self.data.campaign,
            "ruleset": self.data.ruleset,
            "engine_version": self.engine_version,
            "step": self.step,
            "steps_resolved": self.data.steps_resolved,
            "finished": self.finished,
            "paused": self.data.paused,  # by the GM: orders are taken, nothing is processed
            "paused_at": self.data.paused_at,
            "paused_reason": self.data.paused_reason,
            "log_version": self.data.version,
            "state_hash": self.data.last_hash,
            "dice_commitment": self.data.commitment,
            "players": [{"id": p.id, "name": p.name, "role": p.role} for p in self.data.players.values()],
            "powers": self.ruleset.view(self.current()[1], self.scenario, "public").get("powers", {}),
            "pending": [
                {"key": r.key, "kind": r.kind, "player": r.player, "power": r.power, "prompt": r.prompt,
                 "default": r.default, "deadline": self.data.deadlines.get(self.step or "")}
                for r in pending
            ],
        }
