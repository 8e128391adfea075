"""The campaign service: the one door through which mail (by way of `inbox`), the CLI and
the clock change a campaign (DESIGN §1). Commands are checked against the projected state
before anything is appended; a refused order set is still recorded, with its line
diagnostics, and answered. Everything one input causes — the input, policy answers,
resolved steps — is saved in one transaction, by one session (`CampaignService.session`).
"""

from __future__ import annotations

import hmac
import secrets as secrets_module
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime, timedelta, timezone
from typing import TypeVar

import msgspec

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.persistence import IntegrityError

from pbem.core import clock
from pbem.core import ruleset as rulesets
from pbem.core.campaign import Campaign, DiceVault, InboundMail, campaign_id
from pbem.core.canonical import canonical_json, sha256_hex
from pbem.core.decisions import kinds_of, verdict
from pbem.core.dice import commitment, forced_dice_problem, new_secret
from pbem.core.dispatch import dispatch, mail_cause, work_cause
from pbem.core.engine import Policy
from pbem.core.messages import OutgoingMail
from pbem.core.helpdesk import campaign_line, owed_help, players_of
from pbem.core.orders import ENVELOPE_HELP, OrderText, PolicyLine, QueueLine, split_orders, unknown_name
from pbem.core.outcomes import CommandError, Outcome, Owed, PlayerSpec, Receipt, Renderer, token_hash
from pbem.core.projection import CampaignProjection
from pbem.core.queues import conditional_records, path_problem
from pbem.core.ruleset import Seat
from pbem.core.session import CampaignSession
from pbem.core.settings import check_settings
from pbem.core.state_edits import StateEdit, StateEditError, apply_edits
from pbem.core.store import CampaignNotFound, CampaignStore, ProjectionLoader, SNAPSHOT_EVERY, campaign_names

__all__ = ["CampaignService", "CommandError", "Outcome", "Owed", "PlayerSpec", "Receipt", "Renderer", "token_hash"]


T = TypeVar("T")
#: How often work on a campaign is tried again when another writer appended meanwhile.
CONFLICT_RETRIES = 8
#: The longest a campaign whose clock failed waits before its clock runs again (seconds).
CLOCK_BACKOFF_CAP = 60.0


def utc_now() -> datetime:
    return datetime.now(timezone.utc)


class CampaignService:
    def __init__(self, store: CampaignStore, renderer: Renderer | None = None,
                 clock: Callable[[], datetime] = utc_now):
        self.store = store
        self.loader = ProjectionLoader(store)
        self.renderer = renderer
        self.clock = clock
        self._open_campaigns: dict[str, tuple[Campaign, CampaignProjection]] = {}
        self._clock_held: dict[str, tuple[int, datetime]] = {}  # failures in a row, when to try again

    # -- queries ----------------------------------------------------------
    def names(self) -> list[str]:
        return campaign_names(self.store)

    def projection(self, name: str, *, upto: int | None = None) -> CampaignProjection:
        return self.loader.load(name, upto=upto)

    def open_campaign(self, name: str) -> tuple[Campaign, CampaignProjection]:
        """The campaign and its projection, in step; kept between commands while no
        other writer has appended to the campaign (so a daemon pays only for new facts)."""
        stored = next(iter(self.store.recorder.select_events(campaign_id(name), desc=True, limit=1)), None)
        if stored is None:
            raise CampaignNotFound(name)
        cached = self.forget(name)
        if cached is not None and cached[0].version == stored.originator_version:
            data = cached[1].data  # what the reports due and the next ones may tell is kept, the rest forgotten
            cached[1].forget_history(min([*data.reported_through.values(), *data.reports_due.values()],
                                         default=data.version))
            return cached
        campaign = self.campaign(name)
        return campaign, self.loader.load(name, upto=campaign.version)

    def forget(self, name: str) -> tuple[Campaign, CampaignProjection] | None:
        """Drop what this service holds of a campaign (the next command reloads it)."""
        return self._open_campaigns.pop(name, None)

    def live(self, name: str) -> CampaignProjection:
        """The campaign's projection as this service holds it between commands (a daemon's
        view: no reload while nobody else writes). Read it; change it only by commands."""
        campaign, projection = self.open_campaign(name)
        self._open_campaigns[name] = (campaign, projection)
        return projection

    def campaign(self, name: str) -> Campaign:
        try:
            return self.store.repository.get(campaign_id(name))
        except AggregateNotFoundError:
            raise CampaignNotFound(name) from None

    # -- the unit of work -------------------------------------------------
    @contextmanager
    def session(self, name: str, *, now: datetime | None = None) -> Iterator[CampaignSession]:
        """One piece of work on campaign `name`: the caller records its facts on the
        session; then the steps they allow resolve, everything is saved in one transaction
        (with the mail that caused it) and the mail to send is collected in
        `session.outcome`. Work that fails saves nothing; the next session reloads."""
        with self.store.lease(name):
            campaign, projection = self.open_campaign(name)
            session = CampaignSession(campaign, projection, now=now or self.clock(), renderer=self.renderer)
            yield session
            if session.advancing:
                session.outcome.steps_resolved += clock.advance(session)
            receipt = session.outcome.receipt
            if receipt is not None:
                receipt.steps_resolved = session.outcome.steps_resolved
                self.fill_owed(receipt, projection)
            # The mail is rendered before the facts are saved, and saved with them (`Dispatch`).
            mail = session.outcome.mail
            if session.report_everyone_since is not None:
                mail.extend(self.reports_mail(projection, since_version=session.report_everyone_since,
                                              version=campaign.version, unsaved=session.facts))
            else:
                mail.extend(self.mail_for(session.outcome, projection, session.before, session.facts,
                                          session.reply))
            if session.receipt_copy_to and receipt is not None and session.reply and self.renderer is not None:
                copy = receipt.model_copy(update={"to": session.receipt_copy_to})
                mail.append(self.renderer.receipt(copy, key=session.reply[0].replace("receipt:", "receipt-copy:", 1),
                                                  in_reply_to=None))
            self.save(session)

    def retrying(self, name: str, work: Callable[[], T]) -> T:
        """`work` on campaign `name`, done again on a fresh copy of the campaign when
        another writer (a GM command line, a second worker) appended to it meanwhile: the
        store refuses a stale save (optimistic concurrency), nothing of it is kept."""
        for _ in range(CONFLICT_RETRIES - 1):
            try:
                return work()
            except IntegrityError:
                self.forget(name)
        return work()

    # -- creation ---------------------------------------------------------
    def create(self, name: str, ruleset_name: str, scenario_data: dict, players: Sequence[PlayerSpec], *,
               options: dict | None = None, settings: dict | None = None,
               secret: bytes | None = None) -> tuple[dict[str, str], Outcome]:
        """A new campaign; returns each player's SIGNON token and the first reports."""
        if not name or any(c.isspace() for c in name):
            raise CommandError("a campaign name is one word, e.g. ratio-demo")
        if name in self.names():
            raise CommandError(f"a campaign named {name!r} already exists")
        ruleset = rulesets.load(ruleset_name)
        scenario = ruleset.load_scenario(scenario_data)
        problems = ruleset.check_scenario(scenario)
        if problems:
            raise CommandError("the scenario has problems: " + "; ".join(problems))
        problems = check_settings(dict(settings or {}))
        if problems:
            raise CommandError("bad campaign settings: " + "; ".join(problems))
        problems = ruleset.check_options(dict(options or {}))
        if problems:
            raise CommandError("bad campaign options: " + "; ".join(problems))
        ids = [p.id for p in players]
        if len(set(ids)) != len(ids):
            raise CommandError("two players share an id")
        seats = [Seat(p.id, p.name or p.id) for p in players if p.role == "player"]
        try:
            ruleset.initial_state(scenario, dict(options or {}), seats)
        except rulesets.ScenarioError as error:
            raise CommandError("this campaign cannot start: " + "; ".join(error.problems)) from None
        secret = secret or new_secret()
        campaign = Campaign(name=name, ruleset=ruleset_name, ruleset_version=ruleset.version,
                            scenario=scenario_data, scenario_digest=sha256_hex(canonical_json(scenario_data)),
                            options=dict(options or {}), dice_commitment=commitment(secret),
                            settings=dict(settings or {}))
        vault = DiceVault(campaign=name, secret=secret.hex())
        tokens: dict[str, str] = {}
        for spec in players:
            tokens[spec.id] = spec.token or secrets_module.token_urlsafe(8)
            campaign.join(player=spec.id, name=spec.name or spec.id, address=spec.address,
                          token_hash=token_hash(name, spec.id, tokens[spec.id]), timezone=spec.timezone,
                          role=spec.role)
        self.store.save(campaign, vault)
        with self.session(name) as session:
            session.report_everyone_since = 0
        return tokens, session.outcome

    # -- orders -----------------------------------------------------------
    def authenticate(self, name: str, player: str, token: str, sender: str | None) -> tuple[str, str | None]:
        """The player id a SIGNON names, checked against the campaign as this service holds it."""
        return authenticate(self.live(name), player, token, sender)

    def submit(self, name: str, player: str, text: str, *, mail_id: str | None = None,
               in_reply_to: str | None = None, inbound: Callable[[list[int]], InboundMail] | None = None,
               split: OrderText | None = None, copy_to: str | None = None) -> Outcome:
        """Record a player's order set (already authenticated) and resolve what it allows;
        `copy_to`: also send the receipt there (the mail came from another address)."""
        with self.session(name) as session:
            session.receipt_copy_to = copy_to
            parts = split or split_orders(text)
            session.outcome.receipt = self._read(session, player, parts, mail_id)
            explanations = self._explanations(name, player, parts, mail_id)
            session.outcome.mail.extend(explanations)
            if explanations:
                session.outcome.receipt.explained = [f"EXPLAIN {step}: answered in a separate mail"
                                                     for _, step in parts.explain]
            session.inbound = inbound
            session.reply = (f"receipt:{name}:{mail_id or session.before}", in_reply_to)
        return session.outcome

    def _read(self, session: CampaignSession, player: str, parts: OrderText, mail_id: str | None) -> Receipt:
        campaign, projection = session.campaign, session.projection
        record = projection.data.players[player]
        receipt = Receipt(campaign=campaign.name, player=player, to=record.address, timezone=record.timezone,
                          accepted=True, step=projection.step)
        for number, line, reason in parts.problems:
            receipt.verdicts.append(verdict(number, line, False, reason=reason))
        if player in projection.data.civil_disorder or player in projection.data.dropped:
            session.record(campaign.return_player, player=player)
            receipt.policies.append("welcome back: your own orders count again")
        # Explicit answers first, so a policy in the same mail never overrides them (DESIGN §4).
        later = self._read_answers(session, player, parts, receipt, mail_id)
        self._read_policies(session, player, parts, receipt)
        self._read_queue(session, player, [*later, *parts.queued], receipt)
        self._unqueued(later, receipt)
        for press in parts.press:
            if not self._press_recipients(projection, player, press.to):
                receipt.press.append(f"press to {press.to} not sent: no player holds {press.to}")
                continue
            session.record(campaign.relay_press, player=player, to=press.to, text=press.text, mail_id=mail_id)
            mode = projection.settings.press
            receipt.press.append(f"press to {press.to} " + ("recorded (this campaign relays no press)"
                                                            if mode == "none" else f"relayed ({mode})"))
        for number, start, end in parts.absences:
            try:
                first, last = (datetime.fromisoformat(start).replace(tzinfo=timezone.utc),
                               datetime.fromisoformat(end).replace(tzinfo=timezone.utc) + timedelta(days=1))
            except ValueError:
                receipt.verdicts.append(verdict(number, f"ABSENT {start} {end}", False,
                                                reason="dates are written 2027-07-01"))
                continue
            session.record(campaign.declare_absence, player=player, start=first.isoformat(), end=last.isoformat())
            receipt.verdicts.append(verdict(number, f"ABSENT {start} {end}", True,
                                            f"absent from {start} to {end}: deadlines wait for you"))
        if parts.ready and projection.step is not None:
            session.record(campaign.set_ready, player=player, step=projection.step)
            receipt.policies.append("marked READY for this step")
        for number, step in parts.gm:
            receipt.verdicts.append(verdict(number, step, False, reason="GM commands are taken only from the GM"))
        for number, ask in parts.asks:
            receipt.asks.append(ask)
            receipt.verdicts.append(verdict(number, ask, True, "answered below"))
        receipt.verdicts.sort(key=lambda v: v.number)
        return receipt

    def ready(self, name: str, player: str) -> Outcome:
        """The player is done with the current step (issue 6): it may be processed early."""
        return self.submit(name, player, "READY")

    def absence(self, name: str, player: str, start: str, end: str) -> Outcome:
        """The player is away: deadlines of steps that wait for them fall after `end`."""
        with self.session(name) as session:
            session.record(session.campaign.declare_absence, player=player, start=start, end=end)
        return session.outcome

    def _read_answers(self, session: CampaignSession, player: str, parts: OrderText, receipt: Receipt,
                      mail_id: str | None) -> list[QueueLine]:
        """Read the order lines and record what they answer; the lines addressed to a power
        that owes nothing now are given back, to be queued for its next decision."""
        campaign, projection = session.campaign, session.projection
        ruleset = projection.ruleset
        if not parts.orders:
            return []
        if projection.finished:
            receipt.accepted = False
            receipt.reason = "the campaign is over; no more orders are taken"
            return []
        state = projection.current()[1]
        requests = projection.answerable_for(player)
        reading = kinds_of(ruleset).read_orders(parts.orders, requests, state, projection.scenario, player,
                                                projection.step)
        receipt.verdicts.extend(reading.verdicts)
        lines = [line for _, line in parts.orders]
        if not reading.accepted:  # a line read as legal in a set refused whole is not carried out either
            receipt.unused = [v.number for v in reading.verdicts if v.accepted]
            receipt.accepted = False
            receipt.reason = reading.reject_all or "no line of this order set could be used"
            session.record(campaign.reject_orders, player=player, step=projection.step, mail_id=mail_id,
                           reason=receipt.reason, verdicts=[v.as_dict() for v in receipt.verdicts])
            return []
        if not reading.answers and not reading.conditional:
            return reading.later
        known = {r.key: r for r in requests}
        replaced = [k for k in reading.answers if k in projection.data.inputs]
        session.record(campaign.submit_orders, player=player, step=projection.step, mail_id=mail_id, lines=lines,
                       answers=reading.answers, conditional=conditional_records(reading),
                       verdicts=[v.as_dict() for v in receipt.verdicts])
        for key in reading.answers:
            request = known.get(key)
            label = request.prompt if request else key
            receipt.answered.append(label + (" (replaces your earlier answer)" if key in replaced else ""))
        return reading.later

    def _read_policies(self, session: CampaignSession, player: str, parts: OrderText, receipt: Receipt) -> None:
        campaign, projection = session.campaign, session.projection
        kinds = kinds_of(projection.ruleset)
        for line in parts.policies:
            if line.error:
                receipt.verdicts.append(verdict(line.number, line.text, False, reason=line.error))
                continue
            problem = _policy_problem(projection, player, line)
            if problem:
                receipt.verdicts.append(verdict(line.number, line.text, False, reason=problem))
                continue
            if line.clear:
                session.record(campaign.clear_policy, player=player, policy_id=line.clear)
                receipt.policies.append(f"policy {line.clear} cleared")
                receipt.verdicts.append(verdict(line.number, line.text, True, f"clear policy {line.clear}"))
                continue
            policy_id = f"P{projection.data.policy_counter + 1}"
            policy = Policy(policy_id, player, line.kind, line.answer_text, line.power, line.conditions)
            problem = kinds.check_policy(policy)
            if problem:
                receipt.verdicts.append(verdict(line.number, line.text, False, reason=problem))
                continue
            session.record(campaign.set_policy, player=player, policy_id=policy_id, kind=line.kind, power=line.power,
                           conditions=[list(c) for c in line.conditions], answer_text=line.answer_text,
                           text=line.text)
            receipt.policies.append(f"policy {policy_id} set: {line.text}")
            receipt.verdicts.append(verdict(line.number, line.text, True, f"standing policy {policy_id}"))

    @staticmethod
    def _unqueued(later: Sequence[QueueLine], receipt: Receipt) -> None:
        """The lines after a `FOR <power>` that could not wait for that power's next decision
        are refused with it; a mail none of whose lines is used is not accepted."""
        refused = {v.number for v in receipt.verdicts if not v.accepted}
        for queued in [q for q in later if q.number in refused]:
            receipt.verdicts += [verdict(n, line, False, reason=f"not used: line {queued.number} ({queued.text}) was "
                                                                 "refused") for n, line in queued.alternatives[0].lines]
        if later and not any(v.accepted for v in receipt.verdicts) and receipt.accepted:
            receipt.accepted = False
            receipt.reason = "no line of this order set could be used"

    def _read_queue(self, session: CampaignSession, player: str, blocks: Sequence[QueueLine],
                    receipt: Receipt) -> None:
        """`QUEUE … ENDQUEUE` blocks and `QUEUE CLEAR` (issue 16), and lines addressed to a
        power that owes nothing now (`FOR <power>`): checked for what can be checked now (the
        kind, the power is the player's, a replaced block exists); their orders are read when
        the step they answer opens."""
        campaign, projection = session.campaign, session.projection
        for queued in blocks:
            mine = [b.id for b in projection.data.queued if b.player == player]
            problem = queued.error or _queue_problem(projection, player, queued, mine)
            if problem:
                receipt.verdicts.append(verdict(queued.number, queued.text, False, reason=problem))
                continue
            if queued.clear:
                session.record(campaign.clear_queue, player=player, queue_id=queued.clear)
                receipt.queued.append(f"queued {queued.clear} cleared")
                receipt.verdicts.append(verdict(queued.number, queued.text, True, f"clear queued {queued.clear}"))
                continue
            queue_id = queued.replace or f"Q{projection.data.queue_counter + 1}"
            session.record(campaign.queue_orders, player=player, queue_id=queue_id, kind=queued.kind,
                           power=queued.power, turn=queued.turn, not_for=projection.step,
                           alternatives=[msgspec.to_builtins(a) for a in queued.alternatives],
                           replaces=queued.replace is not None)
            block = projection.data.queued[[b.id for b in projection.data.queued].index(queue_id)]
            receipt.queued.append(f"{queue_id} ({'replaced' if queued.replace else 'queued'}): {block.target()}, "
                                  + ", ".join(f"alternative {i} when {a.describe()}"
                                              for i, a in enumerate(block.alternatives, start=1)))
            receipt.verdicts.append(verdict(queued.number, queued.text, True, f"queued as {queue_id}"))
            for index, alternative in enumerate(queued.alternatives, start=1):
                for number, line in alternative.lines:
                    receipt.verdicts.append(verdict(number, line, True, f"queued in {queue_id}, alternative {index}: "
                                                                        "read when its step opens"))

    # -- the clock --------------------------------------------------------
    def tick(self, now: datetime | None = None, *,
             on_failure: Callable[[str, Exception, float], None] | None = None) -> list[Outcome]:
        """The clock: remind, pass due deadlines and graces, process held steps; an
        outcome for each campaign it changed.

        Each campaign's clock runs on its own: one that fails (a GM's broken template, a
        bug) does not stop the others. It is told to `on_failure(name, error, retry_in)`
        and left alone for 1 s, 2 s, 4 s … (at most `CLOCK_BACKOFF_CAP` seconds) before its
        clock runs again; without `on_failure`, the first failure is raised once every
        other campaign has ticked."""
        now = now or self.clock()
        outcomes, failed = [], []
        for name in self.names():
            held = self._clock_held.get(name)
            if held is not None and now < held[1]:
                continue
            try:
                session = self.retrying(name, lambda: self._tick_one(name, now))
            except Exception as error:  # noqa: BLE001 - isolated: told to the caller, retried later
                self.forget(name)
                failures = held[0] + 1 if held else 1
                delay = min(CLOCK_BACKOFF_CAP, 2.0 ** (failures - 1))
                self._clock_held[name] = (failures, now + timedelta(seconds=delay))
                failed.append(error)
                if on_failure is not None:
                    on_failure(name, error, delay)
                continue
            self._clock_held.pop(name, None)
            if session.changed:
                outcomes.append(session.outcome)
        if failed and on_failure is None:
            raise failed[0]
        return outcomes

    def _tick_one(self, name: str, now: datetime) -> CampaignSession:
        with self.session(name, now=now) as session:
            clock.tick(session)
        return session

    def force_dice(self, name: str, purpose: str, values: list[int], reason: str) -> Outcome:
        """Supply die results for `purpose` (a face-to-face session, a test case)."""
        with self.session(name) as session:
            record_forced_dice(session, purpose, values, reason)
        return session.outcome

    def set_state(self, name: str, edits: list[StateEdit], reason: str) -> Outcome:
        """Set fields of the state by path (a case's set-up), at the start of the step in
        progress; refused whole, with the first edit the state does not accept, and why."""
        with self.session(name) as session:
            try:  # on a copy first, so an edit the state refuses never enters the log
                apply_edits(session.projection.ruleset, session.projection.state(), edits)
            except StateEditError as error:
                raise CommandError(f"the state cannot be set: {error}") from None
            session.record(session.campaign.set_state, edits=[e.as_dict() for e in edits], reason=reason)
        return session.outcome

    # -- inner workings ---------------------------------------------------
    def save(self, session: CampaignSession) -> None:
        """Save the session's new facts with the mail that caused them and the mail they
        cause (one transaction), and keep the campaign open; snapshot the projection each
        time it crosses SNAPSHOT_EVERY facts."""
        campaign, projection = session.campaign, session.projection
        others: list = []
        cause = work_cause(campaign.name, session.before) if session.changed else None
        if session.inbound is not None:
            others.append(session.inbound([session.before + 1, campaign.version]))
            cause = mail_cause(others[0].id)
        if cause is not None and session.outcome.mail:
            others.append(dispatch(cause, campaign.name, session.outcome.mail))
        others.extend(session.saved_with)
        if session.changed or others:
            self.store.save(campaign, *others)
        self._open_campaigns[campaign.name] = (campaign, projection)
        if projection.data.version // SNAPSHOT_EVERY > projection.loaded_version // SNAPSHOT_EVERY:
            self.loader.save_snapshot(projection)
            projection.loaded_version = projection.data.version

    def fill_owed(self, receipt: Receipt, projection: CampaignProjection) -> None:
        receipt.owed = [Owed(key=r.key, kind=r.kind, power=r.power, prompt=r.prompt,
                             default_form=kinds_of(projection.ruleset).order_form(r), rule=r.rule)
                        for r in projection.pending_for(receipt.player)]
        receipt.step = projection.step
        receipt.deadline = projection.data.deadlines.get(projection.step or "")
        receipt.paused = projection.data.paused_reason if projection.data.paused else None
        if "HELP" in receipt.asks:
            receipt.help = [*owed_help(projection, receipt.player), *ENVELOPE_HELP]
        if "LIST" in receipt.asks:
            receipt.campaigns = [campaign_line(p, player) for p, player in self.seats_of(receipt.to, projection)]

    def seats_of(self, address: str, current: CampaignProjection | None = None
                 ) -> list[tuple[CampaignProjection, str]]:
        """Each campaign and player the address plays as (`current`: a campaign as a piece of
        work in progress holds it)."""
        seats = []
        for name in self.names():
            projection = current if current is not None and name == current.data.campaign else self.live(name)
            seats += [(projection, player) for player in players_of(projection, address)]
        return seats

    def mail_for(self, outcome: Outcome, projection: CampaignProjection, before: int, facts: Sequence,
                 reply: tuple[str, str | None] | None) -> list[OutgoingMail]:
        """The mail after work that began at log version `before` and recorded `facts`
        (saved or not yet): the press it relays, the receipt (`reply`: its key and the
        Message-ID it answers), and the reports due."""
        if self.renderer is None:
            return []
        mail = self._press(projection, facts)
        recipients = report_recipients(projection, before, outcome.steps_resolved)
        if outcome.receipt is not None and reply is not None:
            key, in_reply_to = reply
            outcome.receipt.report_follows = any(player == outcome.receipt.player for player, _ in recipients)
            mail.append(self.renderer.receipt(outcome.receipt, key=key, in_reply_to=in_reply_to))
        mail.extend(self._reports(projection, recipients, projection.data.version, facts))
        return mail

    def _explanations(self, name: str, player: str, parts: OrderText, mail_id: str | None) -> list[OutgoingMail]:
        """Answers to `EXPLAIN <step>`: the step as this player may see it."""
        if not parts.explain or self.renderer is None:
            return []
        from pbem.core.explain import explain

        history = self.loader.load(name, use_snapshots=False)
        address = history.data.players[player].address
        mail = []
        for number, step in parts.explain:
            key = f"explain:{name}:{mail_id}:{number}"
            if step.upper() == "POLICIES":  # reports fold the standing policies to a count and point here
                mail.append(self.renderer.notice(address, f"[{name}] your standing policies", "Your standing policies",
                                                 self._policies_text(history, player), key=key))
                continue
            resolved = next((r for r in reversed(history.resolved) if r.step.lower() == step.lower()), None)
            text = ("\n".join(explain(resolved, player)) if resolved is not None
                    else f"no resolved step {step!r} in {name}; the reports name each step in brackets")
            mail.append(self.renderer.notice(address, f"[{name}] how step {step} was resolved",
                                             f"Step {step}", text, key=key))
        return mail

    @staticmethod
    def _policies_text(projection: CampaignProjection, player: str) -> str:
        mine = [f"{p.id}: {p.text}" for p in projection.data.policies if p.player == player]
        return "\n".join(mine + ["", "POLICY CLEAR <id|ALL> removes them."]) if mine else (
            "None. A line like POLICY <KIND> [WHEN ...] DO <answer> sets one.")

    def _press(self, projection: CampaignProjection, facts: Iterable) -> list[OutgoingMail]:
        """The press among `facts`, relayed as the campaign's press option says (`none`,
        `open`: signed, `anonymous`)."""
        mode = projection.settings.press
        if mode == "none" or self.renderer is None:
            return []
        mail = []
        for event in facts:
            if not isinstance(event, Campaign.PressRelayed):
                continue
            sender = "anonymous" if mode == "anonymous" else projection.data.players[event.player].name
            for player in self._press_recipients(projection, event.player, event.to):
                mail.append(self.renderer.press(projection, player, sender, event.text,
                                                key=f"press:{projection.data.campaign}:{event.originator_version}:"
                                                    f"{player}"))
        return mail

    def _press_recipients(self, projection: CampaignProjection, sender: str, to: str) -> list[str]:
        players = [p.id for p in projection.data.players.values() if p.id != sender]
        if to.upper() == "ALL":
            return players
        if to in projection.data.players:
            return [to] if to != sender else []
        owner = power_owner(projection, to)
        return [owner] if owner and owner != sender else []

    def reports_mail(self, projection: CampaignProjection, *, since_version: int, version: int,
                     unsaved: Sequence = ()) -> list[OutgoingMail]:
        """A report to everybody, telling what happened since `since_version` (a new
        campaign, a rollback, a rerun: whatever the mailing setting)."""
        return self._reports(projection, [(p, since_version) for p in projection.data.players], version, unsaved)

    def remembering(self, projection: CampaignProjection, since: int, unsaved: Sequence = ()) -> CampaignProjection:
        """`projection`, or the same one reloaded with its history from log version `since`
        when it remembers less (a daemon keeps only what its next reports may tell); the
        `unsaved` facts of the work in progress are folded after the stored ones."""
        if since >= projection.history_from:
            return projection
        return self.loader.load(projection.data.campaign, upto=projection.data.version, history_from=since,
                                unsaved=unsaved)

    def _reports(self, projection: CampaignProjection, recipients: list[tuple[str, int]],
                 version: int, unsaved: Sequence = ()) -> list[OutgoingMail]:
        if self.renderer is None or not recipients:
            return []
        projection = self.remembering(projection, min(since for _, since in recipients), unsaved)
        return [self.renderer.report(projection, player, since_version=since,
                                     key=f"report:{projection.data.campaign}:{version}:{player}")
                for player, since in recipients]


def authenticate(projection: CampaignProjection, player: str, token: str, sender: str | None) -> tuple[str, str | None]:
    """The player id a SIGNON names (a player id or a power they hold), checked with the
    token and, unless the campaign allows other addresses, the sender; also the address a
    copy of the receipt goes to when the mail came from another."""
    name = projection.data.campaign
    record = projection.data.players.get(player) or projection.data.players.get(player.lower())
    if record is None:
        owner = power_owner(projection, player)
        record = projection.data.players.get(owner) if owner else None
    if record is None:
        raise CommandError(f"{player!r} is not a player of campaign {name}")
    token_ok = hmac.compare_digest(record.token_hash, token_hash(name, record.id, token))
    other_address = bool(sender) and sender.lower() != record.address
    if not token_ok or (other_address and not projection.settings.allow_other_addresses):
        # One answer for both, so that a refusal never tells a stranger the token was right.
        raise CommandError(f"wrong token or wrong address for {record.id} in campaign {name}: orders must "
                           "carry the player's token and come from the player's registered address")
    return record.id, (record.address if other_address else None)


def _queue_problem(projection: CampaignProjection, player: str, queued: QueueLine, mine: list[str]) -> str:
    """Why a queued block or a QUEUE CLEAR cannot be taken ("" when it can)."""
    if queued.clear:
        if queued.clear == "ALL" or queued.clear in mine:
            return ""
        return f"you have no queued block {queued.clear} (yours: {', '.join(mine) or 'none'})"
    kinds = kinds_of(projection.ruleset).kinds
    if queued.kind not in kinds:
        return unknown_name("decision kind", queued.kind, kinds)
    problem = _power_problem(projection, player, queued.power, "queue orders")
    if problem:
        return problem
    if queued.replace is not None and queued.replace not in mine:
        return f"you have no queued block {queued.replace} to replace (yours: {', '.join(mine) or 'none'})"
    empty = [str(i) for i, a in enumerate(queued.alternatives, start=1) if not a.lines]
    if empty:
        return f"alternative {', '.join(empty)} has no order lines"
    paths = [name for a in queued.alternatives for name, _, _ in a.conditions]
    if paths:
        view, full_view = projection.view(player), projection.view("gm")
        problems = list(dict.fromkeys(filter(None, (path_problem(view, full_view, path) for path in paths))))
        if problems:
            return "WHEN " + "; ".join(problems)
    return ""


def record_forced_dice(session: CampaignSession, purpose: str, values: Sequence[int], reason: str) -> None:
    """Die results the next rolls of `purpose` take, checked against the dice the game
    declares: refused by name when the game never rolls for that purpose or a value is
    off the die, rather than stopping the step that would roll it."""
    problem = forced_dice_problem(session.projection.ruleset.dice_purposes, purpose, values)
    if problem:
        raise CommandError(problem)
    session.record(session.campaign.force_dice, purpose=purpose, values=list(values), reason=reason)


def _power_problem(projection: CampaignProjection, player: str, power: str | None, what: str) -> str:
    """Why `player` may not `what` for `power` ("" when they may, or no power is named)."""
    if power is None:
        return ""
    powers = projection.game_view("public").powers
    if power not in powers:
        return unknown_name("power", power, powers)
    owner = power_owner(projection, power)
    if owner != player:
        return (f"{power} is not yours to {what} for" if owner
                else f"{power} is held by nobody yet: {what} for it once it is yours")
    return ""


def _policy_problem(projection: CampaignProjection, player: str, line: PolicyLine) -> str:
    """Why a policy line could never take effect ("" when it can): a POLICY CLEAR of a
    policy the player does not have, a policy for a power they do not hold, or one the
    same as a policy they already have."""
    mine = [p for p in projection.data.policies if p.player == player]
    if line.clear:
        if line.clear == "ALL":
            return "" if mine else "you have no standing policies to clear"
        if any(p.id == line.clear for p in mine):
            return ""
        return f"you have no policy {line.clear} (yours: {', '.join(p.id for p in mine) or 'none'})"
    problem = _power_problem(projection, player, line.power, "set policies")
    if problem:
        return problem
    same = next((p for p in mine if _policy_key(p.kind, p.power, p.conditions, p.answer_text)
                 == _policy_key(line.kind, line.power, line.conditions, line.answer_text)), None)
    return f"the same as your policy {same.id}, which stands" if same else ""


def _policy_key(kind: str, power: str | None, conditions: Iterable[Sequence[str]], answer: str) -> tuple:
    """What makes two policies the same, written in any case and spacing."""
    return (kind.lower(), (power or "").upper(), tuple(tuple(str(part).upper() for part in c) for c in conditions),
            " ".join(answer.upper().split()))


def power_owner(projection: CampaignProjection, power: str) -> str | None:
    return projection.game_view("public").owner(power)


def report_recipients(projection: CampaignProjection, before: int, resolved: int) -> list[tuple[str, int]]:
    """Who is mailed a report after work that began at log version `before` and resolved
    `resolved` steps, and from which log version each report tells.

    Whoever was just asked a decision is always mailed. `when-owed` (the default): only
    they, plus everybody when a new turn begins and when the campaign ends; each report
    tells everything since that viewer's previous report, so nothing is skipped, only
    gathered. `every-step`: everybody after any work that resolved steps, telling that work."""
    data = projection.data
    due = data.reports_due if data.reports_due_at > before else {}
    if projection.settings.reports == "every-step":
        return [(p, before) for p in (data.players if resolved else due)]
    if projection.finished and resolved:
        return [(p, data.reported_through.get(p, 0)) for p in data.players]
    return list(due.items())
