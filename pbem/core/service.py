"""The campaign service: the one door through which mail, the CLI and the clock change a
campaign (DESIGN §1). Commands are checked against the projected state before anything
is appended; a refused order set is still recorded, with its line diagnostics, and
answered. Everything one input causes — the input, policy answers, resolved steps — is
saved in one transaction.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets as secrets_module
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Any, Protocol

from eventsourcing.persistence import IntegrityError
from pydantic import BaseModel, ConfigDict

from pbem.core import ruleset as rulesets
from pbem.core.campaign import Campaign, DiceVault, InboundMail, campaign_id
from pbem.core.canonical import canonical_json, sha256_hex
from pbem.core.deadlines import DeadlineRules, deadline_for, later_of, read_settings
from pbem.core.dice import commitment, new_secret
from pbem.core.engine import Policy
from pbem.core.messages import Envelope, MailOutcome, OutgoingMail
from pbem.core.orders import JsonOrdersError, OrderText, orders_from_json, split_orders, unknown_name
from pbem.core.projection import CampaignProjection
from pbem.core.ruleset import Seat
from pbem.core.store import CampaignNotFound, CampaignStore, ProjectionLoader, SNAPSHOT_EVERY, campaign_names

MAX_STEPS_PER_INPUT = 100_000


class CommandError(Exception):
    """A command that cannot be carried out; the message is for the user."""


class PlayerSpec(BaseModel):
    """A player as the GM lists them in a players file."""

    model_config = ConfigDict(extra="forbid")

    id: str
    name: str = ""
    address: str
    timezone: str = "UTC"
    token: str | None = None
    role: str = "player"


class Owed(BaseModel):
    key: str
    kind: str
    power: str | None
    prompt: str
    default_form: str
    rule: str = ""


class Receipt(BaseModel):
    """The answer to one order set: every line echoed, what it answered, what is still owed."""

    campaign: str
    player: str
    to: str
    timezone: str = "UTC"
    accepted: bool
    reason: str = ""
    verdicts: list[dict] = []
    answered: list[str] = []
    policies: list[str] = []
    press: list[str] = []
    owed: list[Owed] = []
    deadline: str | None = None
    step: str | None = None
    steps_resolved: int = 0


class Renderer(Protocol):
    """Turns what the service decided to say into mail (implemented by `pbem.reports`)."""

    def receipt(self, receipt: Receipt, *, key: str, in_reply_to: str | None) -> OutgoingMail: ...

    def report(self, projection: CampaignProjection, viewer: str, *, since_version: int, key: str) -> OutgoingMail: ...

    def refusal(self, to: str, subject: str, text: str, *, key: str, in_reply_to: str | None) -> OutgoingMail: ...

    def press(self, projection: CampaignProjection, to_player: str, sender: str, text: str, *,
              key: str) -> OutgoingMail: ...

    def notice(self, to: str, subject: str, title: str, text: str, *, key: str,
               in_reply_to: str | None = None) -> OutgoingMail: ...

    def reminder(self, projection: CampaignProjection, player: str, *, key: str) -> OutgoingMail: ...


@dataclass
class Outcome:
    """What one input did: the receipt (if it came from a player) and the mail to send."""

    campaign: str
    receipt: Receipt | None = None
    steps_resolved: int = 0
    mail: list[OutgoingMail] = field(default_factory=list)


def _miss_key(projection: CampaignProjection, step: str) -> str:
    return f"{step}@{projection.data.deadlines.get(step, '')}"


def token_hash(campaign: str, player: str, token: str) -> str:
    return hashlib.sha256(f"{campaign}|{player}|{token}".encode()).hexdigest()


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

    # -- queries ----------------------------------------------------------
    def names(self) -> list[str]:
        return campaign_names(self.store)

    def projection(self, name: str, *, upto: int | None = None) -> CampaignProjection:
        return self.loader.load(name, upto=upto)

    def _open(self, name: str) -> tuple[Campaign, CampaignProjection]:
        """The campaign and its projection, in step; kept between commands while no
        other writer has appended to the campaign (so a daemon pays only for new facts)."""
        stored = next(iter(self.store.recorder.select_events(campaign_id(name), desc=True, limit=1)), None)
        if stored is None:
            raise CampaignNotFound(name)
        cached = self._open_campaigns.pop(name, None)
        if cached is not None and cached[0].version == stored.originator_version:
            cached[1].resolved.clear()  # reported already; a long-lived service keeps no history
            return cached
        campaign = self.campaign(name)
        return campaign, self.loader.load(name, upto=campaign.version)

    def live(self, name: str) -> CampaignProjection:
        """The campaign's projection as this service holds it between commands (a daemon's
        view: no reload while nobody else writes). Read it; change it only by commands."""
        campaign, projection = self._open(name)
        self._open_campaigns[name] = (campaign, projection)
        return projection

    def campaign(self, name: str) -> Campaign:
        try:
            return self.store.repository.get(campaign_id(name))
        except Exception as error:  # the library raises AggregateNotFoundError
            if type(error).__name__ == "AggregateNotFoundError":
                raise CampaignNotFound(name) from None
            raise

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
            campaign.join(player=spec.id, name=spec.name or spec.id, address=spec.address.lower(),
                          token_hash=token_hash(name, spec.id, tokens[spec.id]), timezone=spec.timezone,
                          role=spec.role)
        self.store.save(campaign, vault)
        outcome = Outcome(name)
        projection = self.loader.load(name)
        before = projection.data.version
        outcome.steps_resolved = self._advance(campaign, projection)
        self._save(campaign, projection)
        outcome.mail.extend(self._reports(projection, since_version=0, version=campaign.version,
                                          first=before == projection.data.version))
        return tokens, outcome

    # -- orders -----------------------------------------------------------
    def authenticate(self, name: str, player: str, token: str, sender: str | None) -> tuple[str, str | None]:
        """The player id a SIGNON names (a player id or a power they hold), checked with
        the token and, unless the campaign allows other addresses, the sender."""
        projection = self.projection(name)
        record = projection.data.players.get(player) or projection.data.players.get(player.lower())
        if record is None:
            owner = self._power_owner(projection, player)
            record = projection.data.players.get(owner) if owner else None
        if record is None:
            raise CommandError(f"{player!r} is not a player of campaign {name}")
        if not hmac.compare_digest(record.token_hash, token_hash(name, record.id, token)):
            raise CommandError(f"wrong token for {record.id} in campaign {name}")
        copy_to = None
        if sender and sender.lower() != record.address:
            if not projection.data.settings.get("allow_other_addresses", False):
                raise CommandError(f"mail for {record.id} must come from the registered address")
            copy_to = record.address
        return record.id, copy_to

    @staticmethod
    def _power_owner(projection: CampaignProjection, power: str) -> str | None:
        powers = projection.view("public").get("powers", {})
        entry = powers.get(power.upper())
        return entry.get("player") if isinstance(entry, dict) else None

    def submit(self, name: str, player: str, text: str, *, mail_id: str | None = None,
               in_reply_to: str | None = None, inbound: Callable[[list[int]], InboundMail] | None = None,
               split: OrderText | None = None) -> Outcome:
        """Record a player's order set (already authenticated) and resolve what it allows."""
        campaign, projection = self._open(name)
        before = campaign.version
        parts = split or split_orders(text)
        if parts.gm and projection.data.players[player].role == "gm":
            return self._gm_mail(name, player, parts, in_reply_to, inbound)
        receipt = self._read(campaign, projection, player, parts, mail_id)
        outcome = Outcome(name, receipt)
        outcome.mail.extend(self._explanations(name, player, parts, mail_id))
        outcome.steps_resolved = self._advance(campaign, projection)
        receipt.steps_resolved = outcome.steps_resolved
        self._fill_owed(receipt, projection)
        records = [inbound([before + 1, campaign.version])] if inbound is not None else []
        self._save(campaign, projection, *records)
        outcome.mail.extend(self._mail_for(outcome, projection, before, mail_id, in_reply_to))
        return outcome

    def _read(self, campaign: Campaign, projection: CampaignProjection, player: str, parts: OrderText,
              mail_id: str | None) -> Receipt:
        ruleset = projection.ruleset
        record = projection.data.players[player]
        receipt = Receipt(campaign=campaign.name, player=player, to=record.address, timezone=record.timezone,
                          accepted=True, step=projection.step)
        for number, line, reason in parts.problems:
            receipt.verdicts.append({"number": number, "text": line, "accepted": False, "understood": "",
                                     "reason": reason})
        if player in projection.data.civil_disorder or player in projection.data.dropped:
            self._record(campaign, projection, campaign.return_player, player=player)
            receipt.policies.append("welcome back: your own orders count again")
        # Explicit answers first, so a policy in the same mail never overrides them (DESIGN §4).
        self._read_answers(campaign, projection, player, parts, receipt, mail_id)
        self._read_policies(campaign, projection, player, parts, receipt)
        for press in parts.press:
            self._record(campaign, projection, campaign.relay_press, player=player, to=press.to,
                         text=press.text, mail_id=mail_id)
            mode = projection.data.settings.get("press", "open")
            receipt.press.append(f"press to {press.to} " + ("recorded (this campaign relays no press)"
                                                            if mode == "none" else f"relayed ({mode})"))
        for number, start, end in parts.absences:
            try:
                first, last = (datetime.fromisoformat(start).replace(tzinfo=timezone.utc),
                               datetime.fromisoformat(end).replace(tzinfo=timezone.utc) + timedelta(days=1))
            except ValueError:
                receipt.verdicts.append({"number": number, "text": f"ABSENT {start} {end}", "accepted": False,
                                         "understood": "", "reason": "dates are written 2027-07-01"})
                continue
            self._record(campaign, projection, campaign.declare_absence, player=player, start=first.isoformat(),
                         end=last.isoformat())
            receipt.verdicts.append({"number": number, "text": f"ABSENT {start} {end}", "accepted": True,
                                     "understood": f"absent from {start} to {end}: deadlines wait for you",
                                     "reason": ""})
        if parts.ready and projection.step is not None:
            self._record(campaign, projection, campaign.set_ready, player=player, step=projection.step)
            receipt.policies.append("marked READY for this step")
        for number, step in parts.gm:
            receipt.verdicts.append({"number": number, "text": step, "accepted": False, "understood": "",
                                     "reason": "GM commands are taken only from the GM"})
        receipt.verdicts.sort(key=lambda v: v["number"])
        return receipt

    def ready(self, name: str, player: str) -> Outcome:
        """The player is done with the current step (issue 6): it may be processed early."""
        return self.submit(name, player, "READY")

    def absence(self, name: str, player: str, start: str, end: str) -> Outcome:
        """The player is away: deadlines of steps that wait for them fall after `end`."""
        campaign, projection = self._open(name)
        before = campaign.version
        self._record(campaign, projection, campaign.declare_absence, player=player, start=start, end=end)
        outcome = Outcome(name)
        outcome.steps_resolved = self._advance(campaign, projection)
        self._save(campaign, projection)
        outcome.mail.extend(self._reports(projection, since_version=before, version=campaign.version))
        return outcome

    def _read_answers(self, campaign: Campaign, projection: CampaignProjection, player: str, parts: OrderText,
                      receipt: Receipt, mail_id: str | None) -> None:
        ruleset = projection.ruleset
        if not parts.orders:
            return
        if projection.finished:
            receipt.accepted = False
            receipt.reason = "the campaign is over; no more orders are taken"
            return
        state = projection.current()[1]
        requests = projection.answerable_for(player)
        reading = ruleset.read_orders(parts.orders, requests, state, projection.scenario, player)
        receipt.verdicts.extend(v.as_dict() for v in reading.verdicts)
        lines = [line for _, line in parts.orders]
        if not reading.accepted:
            receipt.accepted = False
            receipt.reason = reading.reject_all or "no line of this order set could be used"
            self._record(campaign, projection, campaign.reject_orders, player=player, step=projection.step,
                         mail_id=mail_id, reason=receipt.reason, verdicts=receipt.verdicts)
            return
        known = {r.key: r for r in requests}
        replaced = [k for k in reading.answers if k in projection.data.inputs]
        conditional = [{"id": p.id, "player": p.player, "kind": p.kind, "answer_text": p.answer_text,
                        "text": p.answer_text, "power": p.power, "conditions": [list(c) for c in p.conditions],
                        "step": p.step} for p in reading.conditional]
        self._record(campaign, projection, campaign.submit_orders, player=player, step=projection.step,
                     mail_id=mail_id, lines=lines, answers=reading.answers, conditional=conditional,
                     verdicts=receipt.verdicts)
        for key in reading.answers:
            request = known.get(key)
            label = request.prompt if request else key
            receipt.answered.append(label + (" (replaces your earlier answer)" if key in replaced else ""))

    def _read_policies(self, campaign: Campaign, projection: CampaignProjection, player: str, parts: OrderText,
                       receipt: Receipt) -> None:
        kinds = projection.ruleset.decision_kinds
        for line in parts.policies:
            if line.error:
                receipt.verdicts.append({"number": line.number, "text": line.text, "accepted": False,
                                         "understood": "", "reason": line.error})
                continue
            if line.clear:
                self._record(campaign, projection, campaign.clear_policy, player=player, policy_id=line.clear)
                receipt.policies.append(f"policy {line.clear} cleared")
                receipt.verdicts.append({"number": line.number, "text": line.text, "accepted": True,
                                         "understood": f"clear policy {line.clear}", "reason": ""})
                continue
            if line.kind not in kinds:
                reason = unknown_name("decision kind", line.kind, kinds)
                receipt.verdicts.append({"number": line.number, "text": line.text, "accepted": False,
                                         "understood": "", "reason": reason})
                continue
            policy_id = f"P{projection.data.policy_counter + 1}"
            policy = Policy(policy_id, player, line.kind, line.answer_text, line.power, line.conditions)
            problem = projection.ruleset.check_policy(policy)
            if problem:
                receipt.verdicts.append({"number": line.number, "text": line.text, "accepted": False,
                                         "understood": "", "reason": problem})
                continue
            self._record(campaign, projection, campaign.set_policy, player=player, policy_id=policy_id,
                         kind=line.kind, power=line.power, conditions=[list(c) for c in line.conditions],
                         answer_text=line.answer_text, text=line.text)
            receipt.policies.append(f"policy {policy_id} set: {line.text}")
            receipt.verdicts.append({"number": line.number, "text": line.text, "accepted": True,
                                     "understood": f"standing policy {policy_id}", "reason": ""})

    # -- the clock --------------------------------------------------------
    def tick(self, now: datetime | None = None) -> list[Outcome]:
        """The clock: remind, pass due deadlines and graces, process held steps. Each is
        recorded as a fact once, so an outage or a clock that jumps never skips or doubles
        one; the next step's deadline is counted from when it really opened."""
        now = now or self.clock()
        outcomes = []
        for name in self.names():
            campaign, projection = self._open(name)
            before = campaign.version
            outcome = Outcome(name)
            if not projection.finished and not projection.data.paused:
                outcome.mail.extend(self._clock_facts(campaign, projection, now))
                outcome.steps_resolved = self._advance(campaign, projection, now)
            if campaign.version == before:
                self._open_campaigns[name] = (campaign, projection)
                continue
            self._save(campaign, projection)
            if outcome.steps_resolved:
                outcome.mail.extend(self._reports(projection, since_version=before, version=campaign.version))
            outcomes.append(outcome)
        return outcomes

    def _clock_facts(self, campaign: Campaign, projection: CampaignProjection, now: datetime) -> list[OutgoingMail]:
        step = projection.step
        if step is None or step not in projection.data.deadlines:
            return []
        rules = self._rules(projection, step)
        deadline = datetime.fromisoformat(projection.data.deadlines[step])
        mail: list[OutgoingMail] = []
        if step not in projection.data.deadlines_passed:
            sent = projection.data.reminders.get(step, [])
            due = [h for h in rules.reminders if h not in sent and deadline - timedelta(hours=h) <= now < deadline]
            if due:
                owing = sorted({r.player for r in projection.pending()})
                for hours in sorted(due, reverse=True):  # an outage sends only the latest reminder
                    self._record(campaign, projection, campaign.remind, step=step, hours_before=hours, players=owing)
                mail.extend(self._reminders(projection, owing, deadline))
            if now >= deadline:
                self._record(campaign, projection, campaign.pass_deadline, step=step, at=deadline.isoformat(),
                             by="clock")
        if (step in projection.data.deadlines_passed and step not in projection.data.graces_expired
                and now >= deadline + timedelta(hours=rules.grace_hours)):
            self._record(campaign, projection, campaign.expire_grace, step=step,
                         at=(deadline + timedelta(hours=rules.grace_hours)).isoformat())
        return mail

    def _rules(self, projection: CampaignProjection, step: str | None) -> DeadlineRules:
        clock = projection.data.opened.get(step or "")
        return read_settings(projection.data.settings).for_kind(clock.kind if clock else None)

    def _reminders(self, projection: CampaignProjection, players: list[str], deadline: datetime) -> list[OutgoingMail]:
        if self.renderer is None:
            return []
        return [self.renderer.reminder(projection, player,
                                       key=f"reminder:{projection.data.campaign}:{projection.data.version}:{player}")
                for player in players]

    def force_dice(self, name: str, purpose: str, values: list[int], reason: str) -> Outcome:
        """Supply die results for `purpose` (a face-to-face session, a test case)."""
        campaign, projection = self._open(name)
        before = campaign.version
        self._record(campaign, projection, campaign.force_dice, purpose=purpose, values=list(values), reason=reason)
        outcome = Outcome(name)
        outcome.steps_resolved = self._advance(campaign, projection)
        self._save(campaign, projection)
        outcome.mail.extend(self._reports(projection, since_version=before, version=campaign.version))
        return outcome

    # -- mail -------------------------------------------------------------
    def handle_mail(self, envelope: Envelope) -> MailOutcome:
        """Record one received mail and answer it; the same mail again changes nothing
        and returns the same replies."""
        digest = hashlib.sha256(envelope.raw or envelope.text.encode()).hexdigest()
        mail_uuid = InboundMail.create_id(envelope.message_id, digest)
        try:
            existing = self.store.repository.get(mail_uuid)
        except Exception as error:
            if type(error).__name__ != "AggregateNotFoundError":
                raise
            existing = None
        if existing is not None:
            return self._replay_mail(existing, envelope)
        text, json_problem = envelope.text, ""
        if envelope.json_orders is not None:
            try:  # the attachment's lines come first: the mail's own SIGNOFF must not cut them off
                text = orders_from_json(envelope.json_orders) + "\n" + envelope.text
            except JsonOrdersError as error:
                json_problem = str(error)
        parts = split_orders(text)
        name = parts.signon.campaign if parts.signon else None

        def inbound(outcome: str, versions: list[int]) -> InboundMail:
            return InboundMail(message_id=envelope.message_id, digest=digest, sender=envelope.sender.lower(),
                               source_key=envelope.source_key, raw=envelope.raw_compressed(), campaign=name,
                               campaign_versions=versions, outcome=outcome)

        if "@" not in envelope.sender:
            # Nobody to answer and nobody to trust: keep the mail, change nothing else.
            try:
                self.store.save(inbound("refused: no sender address", []))
            except IntegrityError:
                pass
            return MailOutcome(campaign=name)
        refusal = json_problem or self._refusal_reason(parts, envelope)
        player, copy_to = "", None
        if not refusal:
            try:
                player, copy_to = self.authenticate(name, parts.signon.player, parts.signon.token, envelope.sender)
            except (CommandError, CampaignNotFound) as error:
                refusal = str(error)
        if refusal:
            try:
                self.store.save(inbound("refused: " + refusal, []))
            except IntegrityError:
                return self._replay_mail(self.store.repository.get(mail_uuid), envelope)
            return MailOutcome(campaign=name, replies=(self._refusal(envelope, refusal, mail_uuid),))
        try:
            outcome = self.submit(name, player, text, mail_id=str(mail_uuid),
                                  in_reply_to=envelope.message_id,
                                  inbound=lambda versions: inbound(f"orders of {player}", versions), split=parts)
        except IntegrityError:
            return self._replay_mail(self.store.repository.get(mail_uuid), envelope)
        replies = list(outcome.mail)
        if copy_to and outcome.receipt is not None and self.renderer is not None:
            copy = outcome.receipt.model_copy(update={"to": copy_to})
            replies.append(self.renderer.receipt(copy, key=f"receipt-copy:{name}:{mail_uuid}", in_reply_to=None))
        return MailOutcome(campaign=name, replies=tuple(replies))

    @staticmethod
    def _refusal_reason(parts: OrderText, envelope: Envelope) -> str:
        if parts.signon_error:
            return parts.signon_error
        if parts.signon is None:
            if envelope.json_orders is not None:
                return "a JSON attachment must come with a SIGNON line in the mail"
            return ("this mail has no SIGNON line; start your orders with "
                    "SIGNON <player> <campaign> <token>")
        return ""

    def _refusal(self, envelope: Envelope, reason: str, mail_uuid: Any) -> OutgoingMail:
        if self.renderer is None:
            return OutgoingMail(key=f"refusal:{mail_uuid}", to=envelope.sender, subject="Re: " + envelope.subject,
                                text=reason + "\n")
        return self.renderer.refusal(envelope.sender, "Re: " + (envelope.subject or "your orders"), reason,
                                     key=f"refusal:{mail_uuid}", in_reply_to=envelope.message_id)

    def _replay_mail(self, inbound: InboundMail, envelope: Envelope) -> MailOutcome:
        """The replies a recorded mail caused, derived again from the log."""
        if inbound.outcome.startswith("refused: ") or not inbound.campaign_versions:
            reason = inbound.outcome.removeprefix("refused: ")
            return MailOutcome(duplicate=True, campaign=inbound.campaign,
                               replies=(self._refusal(envelope, reason, inbound.id),))
        first, last = inbound.campaign_versions
        name = inbound.campaign
        projection = self.loader.load(name, upto=last)
        events = list(self.loader.campaign_events(name, gt=first - 1, lte=last))
        orders = next((e for e in events if type(e).__name__ in ("OrdersSubmitted", "OrdersRejected")), None)
        player = orders.player if orders is not None else inbound.outcome.removeprefix("orders of ")
        record = projection.data.players[player]
        receipt = Receipt(campaign=name, player=player, to=record.address, timezone=record.timezone,
                          accepted=orders is None or type(orders).__name__ == "OrdersSubmitted",
                          reason=getattr(orders, "reason", ""), verdicts=getattr(orders, "verdicts", []),
                          step=getattr(orders, "step", None))
        outcome = Outcome(name, receipt, sum(1 for e in events if type(e).__name__ == "StepResolved"))
        receipt.steps_resolved = outcome.steps_resolved
        self._fill_owed(receipt, projection)
        mail = self._mail_for(outcome, projection, first - 1, str(inbound.id), envelope.message_id)
        return MailOutcome(duplicate=True, campaign=name, replies=tuple(mail))

    # -- inner workings ---------------------------------------------------
    @staticmethod
    def _record(campaign: Campaign, projection: CampaignProjection, command: Callable[..., None],
                **kwargs: Any) -> None:
        """Append a fact and fold it into the projection at once."""
        command(**kwargs)
        projection.apply(campaign.pending_events[-1])

    def _advance(self, campaign: Campaign, projection: CampaignProjection, now: datetime | None = None) -> int:
        """Resolve steps until one needs a person (or the campaign is paused, or a step is
        held for its earliest processing time); returns how many resolved."""
        now = now or self.clock()
        resolved = 0
        for _ in range(MAX_STEPS_PER_INPUT):
            result, state = projection.current()
            if result is None:
                break
            for used in result.auto_answers:
                self._record(campaign, projection, campaign.answer, key=used.request.key,
                             value=used.answer.value, source=used.answer.source)
            result, state = projection.current()
            if result.completed:
                if projection.data.paused or self._held(projection, result, now):
                    break
                digest = sha256_hex(projection.ruleset.encode_state(state))
                self._record(campaign, projection, campaign.resolve_step, step=result.step,
                             engine_version=projection.engine_version, state_hash=digest)
                resolved += 1
                continue
            if result.step in projection.data.deadlines_passed:
                if self._missed(campaign, projection, result, now):
                    continue
                break
            if result.step not in projection.data.opened:
                self._open_step(campaign, projection, result, now)
            break
        return resolved

    def _held(self, projection: CampaignProjection, result: Any, now: datetime) -> bool:
        """A step kept open until its earliest processing time, unless everyone who took
        part said READY or its deadline passed."""
        clock = projection.data.opened.get(result.step)
        if clock is None or now >= datetime.fromisoformat(clock.earliest):
            return False
        if result.step in projection.data.deadlines_passed:
            return False
        players = {u.request.player for u in result.used}
        return not players <= set(projection.data.ready.get(result.step, []))

    def _open_step(self, campaign: Campaign, projection: CampaignProjection, result: Any, now: datetime) -> None:
        kind = result.pending[0].kind
        rules = read_settings(projection.data.settings).for_kind(kind)
        deadline = deadline_for(now, rules)
        for player in sorted({r.player for r in result.pending}):
            spans = [(datetime.fromisoformat(a), datetime.fromisoformat(b))
                     for a, b in projection.data.absences.get(player, [])]
            deadline = later_of(deadline, spans, rules)
        earliest = now.replace(microsecond=0) + timedelta(hours=rules.earliest_hours)
        self._record(campaign, projection, campaign.open_step, step=result.step, kind=kind,
                     opened=now.replace(microsecond=0).isoformat(), deadline=deadline.isoformat(),
                     earliest=earliest.isoformat())

    def _missed(self, campaign: Campaign, projection: CampaignProjection, result: Any, now: datetime) -> bool:
        """The campaign's missed-orders policy, for the requests still owed after a
        deadline (issue 6): True when it recorded something that lets the step move on."""
        rules = self._rules(projection, result.step)
        owing = sorted({r.player for r in result.pending})
        # One miss per player per deadline: later decisions of the same step are not new misses.
        already = set(projection.data.missed_in.get(_miss_key(projection, result.step), []))
        policy = rules.missed
        if policy == "wait" and result.step not in projection.data.graces_expired:
            return False  # hold the step until the grace is over
        acted = False
        excused = []
        for player in owing:
            if player in already:
                continue
            if policy == "excuse" and projection.data.excused.get(player, 0) < rules.excuses:
                action = "excused"
                excused.append(player)
            elif policy == "wait":
                action = "civil-disorder"
            elif policy == "drop-after" and projection.data.misses.get(player, 0) + 1 >= rules.drop_after:
                action = "dropped"
            else:
                action = "default"
            self._record(campaign, projection, campaign.record_miss, player=player, step=result.step, action=action)
            acted = True
        if excused:
            at = deadline_for(now, rules)
            self._record(campaign, projection, campaign.change_deadline, step=result.step, at=at.isoformat(),
                         reason=f"missed orders excused for {', '.join(excused)}", by=f"missed-orders policy {policy}")
            return True
        for request in projection.pending():
            if request.player in projection.data.civil_disorder or request.player in projection.data.dropped:
                continue  # the engine answers for them, naming why
            self._record(campaign, projection, campaign.answer, key=request.key, value=request.default,
                         source=f"default (deadline passed; missed-orders policy {policy})")
            acted = True
        return acted

    def _save(self, campaign: Campaign, projection: CampaignProjection, *others: Any) -> None:
        """Save the new facts; snapshot the projection each time it crosses SNAPSHOT_EVERY facts."""
        self.store.save(campaign, *others)
        self._open_campaigns[campaign.name] = (campaign, projection)
        if projection.data.version // SNAPSHOT_EVERY > projection.loaded_version // SNAPSHOT_EVERY:
            self.loader.save_snapshot(projection)
            projection.loaded_version = projection.data.version

    def _fill_owed(self, receipt: Receipt, projection: CampaignProjection) -> None:
        receipt.owed = [Owed(key=r.key, kind=r.kind, power=r.power, prompt=r.prompt,
                             default_form=projection.ruleset.order_form(r), rule=r.rule)
                        for r in projection.pending_for(receipt.player)]
        receipt.step = projection.step
        receipt.deadline = projection.data.deadlines.get(projection.step or "")

    def _gm_mail(self, name: str, player: str, parts: OrderText, in_reply_to: str | None,
                 inbound: Callable[[list[int]], InboundMail] | None) -> Outcome:
        """Carry out the GM commands of a mail from the GM, each a fact of its own."""
        from pbem.core.gm import GameMaster

        master = GameMaster(self)
        outcome = Outcome(name)
        lines = []
        before = self.campaign(name).version
        for number, line in parts.gm:
            try:
                reply, done = master.execute(name, line)
            except (CommandError, ValueError) as error:
                lines.append(f"line {number}: {line}\n  refused: {error}")
                continue
            lines.append(f"line {number}: {line}\n  done: {reply}")
            outcome.mail.extend(done.mail)
            outcome.steps_resolved += done.steps_resolved
        if inbound is not None:
            self.store.save(inbound([before + 1, self.campaign(name).version]))
        if self.renderer is not None:
            record = self.live(name).data.players[player]
            outcome.mail.append(self.renderer.notice(record.address, f"[{name}] your GM commands", "GM commands",
                                                     "\n".join(lines), key=f"gm-receipt:{name}:{before}",
                                                     in_reply_to=in_reply_to))
        return outcome

    def _mail_for(self, outcome: Outcome, projection: CampaignProjection, before: int, mail_id: str | None,
                  in_reply_to: str | None) -> list[OutgoingMail]:
        if self.renderer is None:
            return []
        mail = self._press(projection, before)
        if outcome.receipt is not None:
            mail.append(self.renderer.receipt(outcome.receipt, key=f"receipt:{outcome.campaign}:{mail_id or before}",
                                              in_reply_to=in_reply_to))
        if outcome.steps_resolved:
            mail.extend(self._reports(projection, since_version=before, version=projection.data.version))
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
            resolved = next((r for r in reversed(history.resolved) if r.step.lower() == step.lower()), None)
            text = ("\n".join(explain(resolved, player)) if resolved is not None
                    else f"no resolved step {step!r} in {name}; the reports name each step in brackets")
            mail.append(self.renderer.notice(address, f"[{name}] how step {step} was resolved",
                                             f"Step {step}", text, key=f"explain:{name}:{mail_id}:{number}"))
        return mail

    def _press(self, projection: CampaignProjection, before: int) -> list[OutgoingMail]:
        """Press recorded since `before`, relayed as the campaign's press option says
        (`none`, `open`: signed, `anonymous`)."""
        mode = projection.data.settings.get("press", "open")
        if mode == "none" or self.renderer is None:
            return []
        mail = []
        events = self.loader.campaign_events(projection.data.campaign, gt=before, lte=projection.data.version)
        for event in events:
            if type(event).__name__ != "PressRelayed":
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
        owner = self._power_owner(projection, to)
        return [owner] if owner and owner != sender else []

    def _reports(self, projection: CampaignProjection, *, since_version: int, version: int,
                 first: bool = False) -> list[OutgoingMail]:
        if self.renderer is None:
            return []
        return [self.renderer.report(projection, player.id, since_version=since_version,
                                     key=f"report:{projection.data.campaign}:{version}:{player.id}")
                for player in projection.data.players.values()]
