"""The game master's powers (issue 6): every one a fact with a reason, announced to the
players. Pause and resume, move a deadline, process now, replace a player or add an
observer, rule a typed change, roll back to a resolved step, reprocess from one with
corrected orders (previewed as a diff before release), and reveal the dice secret.

Nothing here edits state by hand: a ruling is a named change the ruleset applies; a
rollback supersedes later facts without deleting them; a reprocess replays the
superseded inputs through the same service, so the result is what playing them
directly would have given.
"""

from __future__ import annotations

import secrets as secrets_module
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from eventsourcing.domain import DomainEvent

from pbem.core.campaign import Campaign, DiceVault
from pbem.core.contact import mail_address
from pbem.core.dispatch import LineDone, work_cause
from pbem.core.projection import CampaignProjection
from pbem.core.ruleset import RulingError
from pbem.core.service import CampaignService, CommandError, Outcome, record_forced_dice, token_hash
from pbem.core.session import CampaignSession
from pbem.core.store import open_store

#: Facts a player or the clock put in the log, which a reprocess feeds again.
REPLAYED_INPUTS = (Campaign.OrdersSubmitted, Campaign.OrdersRejected, Campaign.PolicySet, Campaign.PolicyCleared,
                   Campaign.DiceForced, Campaign.DeadlinePassed, Campaign.PlayerReady, Campaign.AbsenceDeclared)


@dataclass
class Correction:
    """For a reprocess: replace the order set recorded at log `version` (None: add a new
    order set before the first replayed input) with `text` from `player`."""

    player: str
    text: str
    version: int | None = None


@dataclass
class Preview:
    """What a reprocess or a rollback would change, before it is released."""

    heading: str  # what would be done: "rerun after step …", "roll back to just after step …"
    old_hash: str
    new_hash: str
    steps_before: list[tuple[str, str]]
    steps_after: list[tuple[str, str]]
    rolls_changed: list[str] = field(default_factory=list)
    reports_changed: dict[str, list[str]] = field(default_factory=dict)
    refused: list[str] = field(default_factory=list)
    superseded: list[str] = field(default_factory=list)  # inputs a rollback sets aside, to be sent again

    def lines(self) -> list[str]:
        out = [self.heading,
               f"state hash now {self.old_hash[:16]}, after it {self.new_hash[:16]}"
               + (" (unchanged)" if self.old_hash == self.new_hash else "")]
        old, new = dict(self.steps_before), dict(self.steps_after)
        for step in sorted(set(old) | set(new), key=lambda s: ([k for k, _ in self.steps_before + self.steps_after]
                                                                .index(s))):
            if old.get(step) != new.get(step):
                out.append(f"  step {step}: {(old.get(step) or 'absent')[:16]} -> {(new.get(step) or 'absent')[:16]}")
        out += [f"  roll {r}" for r in self.rolls_changed]
        for viewer, changes in sorted(self.reports_changed.items()):
            out.append(f"  report of {viewer}: {len(changes)} line(s) differ")
            out += [f"    {c}" for c in changes[:10]]
        out += [f"  refused on rerun: {r}" for r in self.refused]
        out += [f"  superseded, to be sent again: {s}" for s in self.superseded]
        return out


class GameMaster:
    def __init__(self, service: CampaignService):
        self.service = service
        #: The line of a GM's mail being carried out — (mail id, line number, reply) — recorded
        #: done with the facts it causes, so the mail handled again does not do it again.
        self.doing: tuple[str, int, str] | None = None

    # -- helpers ------------------------------------------------------------
    def _command(self, name: str, announce: str, apply: Callable[[CampaignSession], str | None]) -> Outcome:
        """Record GM facts in one session, announced to everyone (the session then resolves
        what they allow and saves). `apply` may return the announcement when only it knows
        the words; "" announces nothing. Done again on the campaign as it then stands when
        the daemon wrote to it meanwhile."""
        def work() -> Outcome:
            with self.service.session(name) as session:
                self._mark_done(session)
                was = _deadline(session.projection)
                words = apply(session) or announce
                now = _deadline(session.projection)
                if words:
                    session.outcome.mail.extend(self._announce(session.projection, words, session.before,
                                                               deadline=now if now != was else None))
            return session.outcome
        return self.service.retrying(name, work)

    def _mark_done(self, session: CampaignSession) -> None:
        if self.doing is not None:
            mail_id, number, reply = self.doing
            session.saved_with.append(LineDone(mail_id=mail_id, number=number, reply=reply, before=session.before,
                                               cause=work_cause(session.name, session.before)))

    def _announce(self, projection: CampaignProjection, text: str, version: int, *,
                  deadline: str | None = None) -> list:
        """The GM's announcement to every player; a deadline the command moved is told
        in each reader's own zone."""
        renderer = self.service.renderer
        if renderer is None:
            return []
        return [renderer.announcement(projection, player.id, text, new_deadline=deadline,
                                      key=f"gm:{projection.data.campaign}:{version}:{player.id}")
                for player in projection.data.players.values()]

    def execute(self, name: str, line: str) -> tuple[str, Outcome]:
        """One `GM <verb> …` line of a mail from the GM."""
        return execute_line(self, name, line)

    # -- pause, deadlines, processing ----------------------------------------
    def pause(self, name: str, reason: str) -> Outcome:
        def apply(session: CampaignSession) -> None:
            if session.projection.data.paused:
                raise CommandError(f"{name} is already paused")
            session.record(session.campaign.pause, reason=reason, at=_now(session).isoformat())
        return self._command(name, f"The campaign is paused: {reason}. Orders are still taken; nothing is "
                                   "processed and no deadline passes until it resumes.", apply)

    def resume(self, name: str, reason: str) -> Outcome:
        """Resume; the step in progress gets back the time it had left when paused."""
        def apply(session: CampaignSession) -> None:
            projection = session.projection
            if not projection.data.paused:
                raise CommandError(f"{name} is not paused")
            paused_at = datetime.fromisoformat(projection.data.paused_at)
            session.record(session.campaign.resume, reason=reason, at=_now(session).isoformat())
            step = projection.step
            if step in projection.data.deadlines and step not in projection.data.deadlines_passed:
                left = datetime.fromisoformat(projection.data.deadlines[step]) - paused_at
                at = _now(session) + max(left, timedelta(0))
                session.record(session.campaign.change_deadline, step=step, at=at.isoformat(),
                               reason="time left when the campaign was paused", by="GM")
        return self._command(name, f"The campaign resumes: {reason}.", apply)

    def extend(self, name: str, hours: int, reason: str) -> Outcome:
        """Move the current deadline by `hours` (negative shortens it)."""
        def apply(session: CampaignSession) -> str:
            projection = session.projection
            step = projection.step
            if step is None or step not in projection.data.deadlines:
                raise CommandError(f"{name} has no deadline running")
            try:
                at = (datetime.fromisoformat(projection.data.deadlines[step]) + timedelta(hours=hours)).isoformat()
            except OverflowError:
                raise CommandError(f"moving the deadline by {hours} hours takes it past the calendar "
                                   "(years 1 to 9999)") from None
            session.record(session.campaign.change_deadline, step=step, at=at, reason=reason, by="GM")
            return f"The deadline is {'extended' if hours >= 0 else 'shortened'} by {abs(hours)} hours: {reason}."
        return self._command(name, "", apply)

    def process(self, name: str, reason: str) -> Outcome:
        """Pass the current deadline now: what is still owed is answered by the campaign's
        missed-orders policy, as if the clock had struck."""
        def apply(session: CampaignSession) -> None:
            projection = session.projection
            step = projection.step
            if step is None:
                raise CommandError(f"{name} is over")
            if step not in projection.data.deadlines_passed:
                session.record(session.campaign.pass_deadline, step=step, at=_now(session).isoformat(),
                               by=f"GM: {reason}")
            if step not in projection.data.graces_expired:
                session.record(session.campaign.expire_grace, step=step, at=_now(session).isoformat())
        return self._command(name, f"The GM processes the current step now: {reason}.", apply)

    # -- people -------------------------------------------------------------
    def replace(self, name: str, player: str, address: str, *, new_name: str | None = None,
                token: str | None = None, reason: str = "") -> tuple[str, Outcome]:
        token = token or secrets_module.token_urlsafe(8)
        address = _address(address)

        def apply(session: CampaignSession) -> None:
            record = session.projection.data.players.get(player)
            if record is None:
                raise CommandError(f"{player!r} is not a player of {name}")
            session.record(session.campaign.replace_player, player=player, name=new_name or record.name,
                           address=address, token_hash=token_hash(name, player, token), reason=reason)
        return token, self._command(name, f"{player} is now played by {new_name or 'a new player'}"
                                          f"{': ' + reason if reason else ''}.", apply)

    def rotate_token(self, name: str, player: str, reason: str) -> tuple[str, Outcome]:
        """A new SIGNON token for a player (an old one leaked); only its hash is kept."""
        token = secrets_module.token_urlsafe(8)

        def apply(session: CampaignSession) -> None:
            if player not in session.projection.data.players:
                raise CommandError(f"{player!r} is not a player of {name}")
            session.record(session.campaign.rotate_token, player=player, token_hash=token_hash(name, player, token),
                           reason=reason)
        return token, self._command(name, "", apply)  # a token is told to its player, not announced

    def observer(self, name: str, observer: str, address: str, *, token: str | None = None) -> tuple[str, Outcome]:
        token = token or secrets_module.token_urlsafe(8)
        address = _address(address)

        def apply(session: CampaignSession) -> None:
            if observer in session.projection.data.players:
                raise CommandError(f"{observer!r} is already in {name}")
            session.record(session.campaign.join, player=observer, name=observer, address=address,
                           token_hash=token_hash(name, observer, token), timezone="UTC", role="observer")
        return token, self._command(name, f"{observer} joins as an observer.", apply)

    # -- the state ------------------------------------------------------------
    def ruling(self, name: str, kind: str, args: dict, reason: str) -> Outcome:
        """A typed change of the state, as the ruleset defines it (never a hand edit)."""
        def apply(session: CampaignSession) -> None:
            projection = session.projection
            ruleset = projection.ruleset
            if kind not in ruleset.rulings:
                known = ", ".join(sorted(ruleset.rulings)) or "none"
                raise CommandError(f"unknown ruling {kind!r} (this ruleset knows: {known})")
            try:  # try it on a copy first, so a bad ruling never enters the log
                ruleset.apply_ruling(projection.state(), projection.scenario, kind, args)
            except RulingError as error:
                raise CommandError(f"the ruling cannot apply: {error}") from None
            session.record(session.campaign.rule, kind=kind, args=args, reason=reason)
        described = " ".join(f"{k}={v}" for k, v in sorted(args.items()))
        return self._command(name, f"GM ruling {kind} {described}: {reason}.", apply)

    def force_dice(self, name: str, purpose: str, values: list[int], reason: str) -> Outcome:
        """Die results the next rolls of `purpose` take (a face-to-face session being
        imported, a replayed example); recorded as forced, so every report shows it."""
        def apply(session: CampaignSession) -> None:
            record_forced_dice(session, purpose, values, reason)
        # The values are not announced: some dice (a deal's) would reveal hidden hands. Each
        # roll shows as forced wherever the rules let a player see it.
        return self._command(name, f"The GM sets the next {len(values)} {purpose} dice: {reason}.", apply)

    def reveal(self, name: str, reason: str) -> Outcome:
        """Publish the dice secret once play is over. While the campaign runs it is refused:
        roll keys are predictable (`<campaign>|<step>/<purpose>#<n>`), so the secret would
        tell every player the dice to come and the hands already dealt, and no new secret
        could hide what was drawn with this one."""
        def apply(session: CampaignSession) -> None:
            projection = session.projection
            if not projection.finished:
                raise CommandError(f"{name} is still being played (step {projection.step}): the dice secret is "
                                   "revealed only once the campaign is over, since with it every player could "
                                   "compute every die to come and the hands already dealt")
            if projection.data.revealed_secret is not None:
                raise CommandError(f"the dice secret of {name} is already revealed")
            session.record(session.campaign.reveal_seed, secret=projection.secret.hex())
        secret = self.service.loader.secret(name).hex()
        return self._command(name, f"The dice secret is revealed: {secret}. Its sha256 is the commitment printed "
                                   f"in the first report; every roll can now be recomputed ({reason}).", apply)

    # -- rollback and reprocess -------------------------------------------------
    def _resolved_version(self, name: str, step: str) -> int:
        """The log version right after resolved step `step`; `start` means right after the
        campaign was created and its players joined."""
        if step.lower() == "start":
            setup = (Campaign.Created, Campaign.PlayerJoined)
            return next(e.originator_version - 1 for e in self.service.loader.campaign_events(name)
                        if not isinstance(e, setup))
        full = self.service.loader.load(name, use_snapshots=False)
        version = next((r.version for r in reversed(full.resolved) if r.step == step), None)
        if version is None:
            raise CommandError(f"no resolved step {step!r} in {name} (see `pbem replay {name}`)")
        return version

    def _refuse_after_reveal(self, name: str, what: str) -> None:
        """Play never goes on after the dice secret was revealed (a rollback's supersession
        does not unsay it): every die of the replayed steps could be computed in advance."""
        if any(isinstance(e, Campaign.SeedRevealed) for e in self.service.loader.campaign_events(name)):
            raise CommandError(f"the dice secret of {name} is revealed: {what} would be played with dice every "
                               "player can compute in advance")

    def rollback(self, name: str, step: str, reason: str) -> Outcome:
        """Back to the state right after resolved step `step`; later facts are superseded."""
        self._refuse_after_reveal(name, "a rollback")
        version = self._resolved_version(name, step)
        service = self.service
        campaign = service.campaign(name)
        campaign.roll_back(to_version=version, reason=reason)
        service.store.save(campaign)
        service.forget(name)
        with service.session(name) as session:
            self._mark_done(session)
            session.report_everyone_since = version
            session.outcome.mail.extend(self._announce(session.projection, f"The campaign is rolled back to just "
                                                                           f"after step {step}: {reason}. Orders sent "
                                                                           "since then must be sent again.",
                                                       session.before))
        return session.outcome

    def _inputs_after(self, name: str, version: int) -> list[DomainEvent]:
        """The player and clock inputs after `version`, as the effective log has them."""
        effective: list[DomainEvent] = []
        for event in self.service.loader.campaign_events(name, gt=0):
            if isinstance(event, Campaign.RolledBack):
                effective = [e for e in effective if e.originator_version <= event.to_version]
                continue
            effective.append(event)
        return [e for e in effective if e.originator_version > version and isinstance(e, REPLAYED_INPUTS)]

    def order_sets(self, name: str) -> list[DomainEvent]:
        """The order sets of the effective log (taken or refused), each with the log version
        `reprocess --replace` names."""
        return [e for e in self._inputs_after(name, 0)
                if isinstance(e, (Campaign.OrdersSubmitted, Campaign.OrdersRejected))]

    def _replay_inputs(self, service: CampaignService, name: str, inputs: list[DomainEvent],
                       corrections: list[Correction]) -> list[str]:
        """Feed the inputs again through `service`; returns order sets refused this time."""
        refused = []
        replacing = {c.version: c for c in corrections if c.version is not None}
        for correction in (c for c in corrections if c.version is None):
            outcome = service.submit(name, correction.player, correction.text)
            if not outcome.receipt.accepted:
                refused.append(f"added orders of {correction.player}: {outcome.receipt.reason}")
        for event in inputs:
            if isinstance(event, (Campaign.OrdersSubmitted, Campaign.OrdersRejected)):
                correction = replacing.get(event.originator_version)
                text = correction.text if correction else "\n".join(getattr(event, "lines", []))
                if isinstance(event, Campaign.OrdersRejected) and correction is None:
                    continue  # refused then, nothing to feed again
                outcome = service.submit(name, event.player, text, mail_id=event.mail_id)
                if not outcome.receipt.accepted:
                    refused.append(f"orders of {event.player} (log version {event.originator_version}): "
                                   f"{outcome.receipt.reason}")
            elif isinstance(event, Campaign.PolicySet):
                service.submit(name, event.player, event.text)
            elif isinstance(event, Campaign.PolicyCleared):
                service.submit(name, event.player, f"POLICY CLEAR {event.policy_id}")
            elif isinstance(event, Campaign.DiceForced):
                service.force_dice(name, event.purpose, list(event.values), event.reason)
            elif isinstance(event, Campaign.DeadlinePassed):
                GameMaster(service).process(name, f"as in the original run ({event.by})")
            elif isinstance(event, Campaign.PlayerReady):
                service.ready(name, event.player)
            elif isinstance(event, Campaign.AbsenceDeclared):
                service.absence(name, event.player, event.start, event.end)
        return refused

    def _check_corrections(self, name: str, corrections: list[Correction]) -> None:
        players = self.service.live(name).data.players
        for correction in corrections:
            if correction.player not in players:
                raise CommandError(f"{correction.player!r} is not a player of {name} "
                                   f"(its players: {', '.join(players)})")

    def preview(self, name: str, after_step: str, corrections: list[Correction] = (),
                ruling: tuple[str, dict] | None = None) -> Preview:
        """What a reprocess after `after_step` would give, played on a scratch copy."""
        self._check_corrections(name, list(corrections))
        version = self._resolved_version(name, after_step)
        scratch = CampaignService(open_store(env={"PERSISTENCE_MODULE": "eventsourcing.popo"}),
                                  self.service.renderer, clock=self.service.clock)
        events = [e for e in self.service.loader.campaign_events(name, lte=version)]
        scratch.store.events.put(events)
        vault = list(self.service.store.events.get(DiceVault.create_id(name)))
        scratch.store.events.put(vault)
        inputs = self._inputs_after(name, version)
        if ruling is not None:
            GameMaster(scratch).ruling(name, ruling[0], ruling[1], "correction for the rerun")
        refused = self._replay_inputs(scratch, name, inputs, list(corrections))
        preview = _compare(f"rerun after step {after_step}", self.service.loader.load(name, use_snapshots=False),
                           scratch.loader.load(name, use_snapshots=False), version)
        preview.refused = refused
        scratch.store.close()
        return preview

    def rollback_preview(self, name: str, step: str) -> Preview:
        """What a rollback to just after `step` would undo, before it is released: the steps
        and rolls set aside, what each player's view loses, and the inputs to send again."""
        self._refuse_after_reveal(name, "a rollback")
        version = self._resolved_version(name, step)
        preview = _compare(f"roll back to just after step {step}", self.service.loader.load(name, use_snapshots=False),
                           self.service.loader.load(name, upto=version, use_snapshots=False), version)
        preview.superseded = [_describe_input(e) for e in self._inputs_after(name, version)]
        return preview

    def reprocess(self, name: str, after_step: str, reason: str, corrections: list[Correction] = (),
                  ruling: tuple[str, dict] | None = None) -> Outcome:
        """Roll back to after `after_step` and feed the superseded inputs again (with the
        corrections, after the ruling), under this engine version; announced as a rerun."""
        self._refuse_after_reveal(name, "a rerun")
        self._check_corrections(name, list(corrections))
        version = self._resolved_version(name, after_step)
        inputs = self._inputs_after(name, version)
        service = self.service
        campaign = service.campaign(name)
        campaign.roll_back(to_version=version, reason=f"rerun: {reason}")
        projection_engine = service.loader.fresh(name).engine_version
        campaign.start_rerun(from_step=after_step, reason=reason, engine_version=projection_engine)
        service.store.save(campaign)
        service.forget(name)
        before = service.campaign(name).version
        if ruling is not None:
            self.ruling(name, ruling[0], ruling[1], f"correction for the rerun: {reason}")
        self._replay_inputs(service, name, inputs, list(corrections))
        projection = service.live(name)
        outcome = Outcome(name)
        outcome.mail.extend(self._announce(projection, f"RERUN: the turn is processed again from after step "
                                                       f"{after_step}: {reason}. The reports that follow replace "
                                                       "the earlier ones.", before))
        outcome.mail.extend(service.reports_mail(projection, since_version=version, version=projection.data.version))
        return outcome


def _compare(heading: str, old: CampaignProjection, new: CampaignProjection, version: int) -> Preview:
    """The difference between a campaign now (`old`) and as a rerun or rollback from log
    version `version` would leave it (`new`): steps, rolls and every viewer's view."""
    preview = Preview(heading, old.data.last_hash, new.data.last_hash,
                      [(r.step, r.state_hash) for r in old.resolved if r.version > version],
                      [(r.step, r.state_hash) for r in new.resolved if r.version > version])
    old_rolls = {r.key: r.value for s in old.resolved if s.version > version for r in s.result.rolls}
    new_rolls = {r.key: r.value for s in new.resolved if s.version > version for r in s.result.rolls}
    preview.rolls_changed = [f"{key}: {old_rolls.get(key)} -> {new_rolls.get(key)}"
                             for key in sorted(set(old_rolls) | set(new_rolls))
                             if old_rolls.get(key) != new_rolls.get(key)]
    for viewer in ["gm", "public", *old.data.players]:
        before_view, after_view = old.view(viewer), new.view(viewer)
        if before_view != after_view:
            preview.reports_changed[viewer] = _dict_changes(before_view, after_view)
    return preview


def _describe_input(event: DomainEvent) -> str:
    """One player's or the clock's input, as a rollback preview lists it."""
    what = {Campaign.OrdersSubmitted: "order set", Campaign.OrdersRejected: "refused order set",
            Campaign.PolicySet: "standing policy", Campaign.PolicyCleared: "policy cleared",
            Campaign.DiceForced: "forced dice", Campaign.DeadlinePassed: "deadline passed",
            Campaign.PlayerReady: "READY", Campaign.AbsenceDeclared: "absence"}[type(event)]
    who = getattr(event, "player", None) or getattr(event, "by", None) or "the GM"
    return f"log version {event.originator_version}: {what} of {who}"


def _address(value: str) -> str:
    try:
        return mail_address(value)
    except ValueError as error:
        raise CommandError(str(error)) from None


def _now(session: CampaignSession) -> datetime:
    return session.now.replace(microsecond=0)


def _deadline(projection: CampaignProjection) -> str | None:
    """The step in progress's deadline (ISO UTC), if one runs."""
    return projection.data.deadlines.get(projection.step or "")


def _dict_changes(before: Any, after: Any, path: str = "") -> list[str]:
    """The paths at which two views differ, with the old and new values."""
    if isinstance(before, dict) and isinstance(after, dict):
        changes = []
        for key in sorted(set(before) | set(after), key=str):
            changes += _dict_changes(before.get(key), after.get(key), f"{path}.{key}" if path else str(key))
        return changes
    if before != after:
        return [f"{path}: {before!r} -> {after!r}"[:200]]
    return []


def _reason(words: list[str], default: str) -> str:
    return " ".join(words).strip() or default


def execute_line(master: GameMaster, name: str, line: str) -> tuple[str, Outcome]:
    """One `GM <verb> …` line from the GM's mail; the reply says what was done."""
    reply, run = read_line(master, name, line)
    return reply, run()


def read_line(master: GameMaster, name: str, line: str) -> tuple[str, Callable[[], Outcome]]:
    """One `GM <verb> …` line read: the reply it gets once done, and the work that does it
    (a token it tells is minted here, so the reply is known before the work is saved)."""
    words = line.split()[1:]
    if not words:
        raise CommandError("a GM line names a command: PAUSE, RESUME, EXTEND, PROCESS, REPLACE, OBSERVER, "
                           "RULING, ROLLBACK, REPROCESS, DICE, REVEAL")
    verb, rest = words[0].upper(), words[1:]
    if verb == "PAUSE":
        return "paused", lambda: master.pause(name, _reason(rest, "paused by the GM"))
    if verb == "RESUME":
        return "resumed", lambda: master.resume(name, _reason(rest, "resumed by the GM"))
    if verb == "EXTEND":
        if not rest or not rest[0].lstrip("+-").isdigit():
            raise CommandError("GM EXTEND <hours> <reason> (negative hours shorten the deadline)")
        return (f"deadline moved by {int(rest[0])} hours",
                lambda: master.extend(name, int(rest[0]), _reason(rest[1:], "GM")))
    if verb == "PROCESS":
        return "processed", lambda: master.process(name, _reason(rest, "processed by the GM"))
    if verb == "REPLACE":
        if len(rest) < 2 or "@" not in rest[1]:
            raise CommandError("GM REPLACE <player> <new address> [<new name>]")
        token = secrets_module.token_urlsafe(8)
        return f"{rest[0]} now signs on with token {token}", lambda: master.replace(
            name, rest[0], rest[1], new_name=" ".join(rest[2:]) or None, token=token, reason="replaced by the GM")[1]
    if verb == "OBSERVER":
        if len(rest) != 2 or "@" not in rest[1]:
            raise CommandError("GM OBSERVER <id> <address>")
        token = secrets_module.token_urlsafe(8)
        return (f"observer {rest[0]} signs on with token {token}",
                lambda: master.observer(name, rest[0], rest[1], token=token)[1])
    if verb == "RULING":
        if not rest:
            raise CommandError("GM RULING <kind> <name=value …> -- <reason>")
        head, _, reason = " ".join(rest).partition("--")
        kind, *pairs = head.split()
        args = {}
        for pair in pairs:
            key, sep, value = pair.partition("=")
            if not sep:
                raise CommandError(f"ruling arguments are name=value, not {pair!r}")
            args[key] = value
        return f"ruling {kind} applied", lambda: master.ruling(name, kind, args, reason.strip() or "GM ruling")
    if verb == "ROLLBACK":
        if not rest:
            raise CommandError("GM ROLLBACK <step> [RELEASE] <reason>: without RELEASE you get the preview")
        release = len(rest) > 1 and rest[1].upper() == "RELEASE"
        if not release:
            return "preview:\n" + "\n".join(master.rollback_preview(name, rest[0]).lines()), lambda: Outcome(name)
        return (f"rolled back to after {rest[0]}",
                lambda: master.rollback(name, rest[0], _reason(rest[2:], "GM rollback")))
    if verb == "REPROCESS":
        if not rest:
            raise CommandError("GM REPROCESS <step> [RELEASE] <reason>: without RELEASE you get the preview")
        release = len(rest) > 1 and rest[1].upper() == "RELEASE"
        reason = _reason(rest[2:] if release else rest[1:], "GM rerun")
        if not release:
            return "preview:\n" + "\n".join(master.preview(name, rest[0]).lines()), lambda: Outcome(name)
        return f"rerun after {rest[0]} released", lambda: master.reprocess(name, rest[0], reason)
    if verb == "DICE":
        head, _, reason = " ".join(rest).partition("--")
        words = head.split()
        if len(words) < 2 or not all(w.isdigit() for w in words[1:]):
            raise CommandError("GM DICE <purpose> <result> [<result> …] -- <reason>")
        values = [int(w) for w in words[1:]]
        return (f"next {words[0]} dice: {' '.join(words[1:])}",
                lambda: master.force_dice(name, words[0], values, reason.strip() or "set by the GM"))
    if verb == "REVEAL":
        return "dice secret revealed", lambda: master.reveal(name, _reason(rest, "revealed by the GM"))
    raise CommandError(f"unknown GM command {verb!r}")

