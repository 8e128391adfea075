"""The clock of a campaign (issue 6): reminders, deadlines and graces passing, the
missed-orders policy, and when a step that waits for people opens and may close — so
also how far a campaign moves on after each piece of work (`advance`). Everything here
works on a `CampaignSession`.

Before a step waits for a player, the orders that player queued for it are used
(`serve_queued`, issue 16), so one mail may carry a player through several steps.

The clock only appends facts (`QueuedOrdersUsed`, `QueuedOrdersDropped`, `StepOpened`, `StepAsked`, `ReminderSent`, `DeadlinePassed`,
`GraceExpired`, `MissRecorded`, `DeadlineChanged`); the projector never reads the time.
Each fact is recorded once per step and deadline, so an outage or a clock that jumps
never skips or doubles one, and the next step's deadline counts from when it opened.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from pbem.core.canonical import sha256_hex
from pbem.core.deadlines import DeadlineRules, deadline_for, later_of
from pbem.core.decisions import kinds_of
from pbem.core.engine import Request
from pbem.core.messages import OutgoingMail
from pbem.core.projection import CampaignProjection
from pbem.core.queues import QueuedBlock, conditional_records
from pbem.core.session import CampaignSession

MAX_STEPS_PER_INPUT = 100_000


def miss_key(projection: CampaignProjection, step: str) -> str:
    """One miss per player per deadline: later decisions of the same step are no new misses."""
    return f"{step}@{projection.data.deadlines.get(step, '')}"


def tick(session: CampaignSession) -> None:
    """The clock looks at one campaign: remind, pass a due deadline and grace. Each is
    recorded as a fact once, so an outage or a clock that jumps never skips or doubles
    one; the next step's deadline is counted from when it really opened. A paused or
    finished campaign is left as it is."""
    projection = session.projection
    if projection.finished or projection.data.paused:
        session.advancing = False
        return
    session.outcome.mail.extend(clock_facts(session))


def advance(session: CampaignSession) -> int:
    """Resolve steps until one needs a person (or the campaign is paused, or a step is
    held for its earliest processing time); returns how many resolved."""
    campaign, projection, now = session.campaign, session.projection, session.now
    resolved = 0
    for _ in range(MAX_STEPS_PER_INPUT):
        result, state = projection.current()
        if result is None:
            break
        for used in result.auto_answers:
            session.record(campaign.answer, key=used.request.key, value=used.answer.value,
                           source=used.answer.source)
        result, state = projection.current()
        if result.completed:
            if projection.data.paused or held(projection, result, now):
                break
            digest = sha256_hex(projection.ruleset.encode_state(state))
            session.record(campaign.resolve_step, step=result.step, engine_version=projection.engine_version,
                           state_hash=digest)
            resolved += 1
            continue
        if serve_queued(session, result):
            continue
        if result.step in projection.data.deadlines_passed and missed(session, result):
            continue
        wait_for_people(session, result)
        break
    return resolved


def serve_queued(session: CampaignSession, result: Any) -> bool:
    """The first queued block that answers one of the step's owed decisions is used or
    dropped (issue 16); True when one was, so the step runs again before it waits. Once a
    player's block was dropped at a step, their next block of that kind waits for the
    next such decision: it was written for that one, not for this step."""
    projection = session.projection
    turn = projection.ruleset.turn_of(result.step)
    dropped = projection.data.queue_dropped.get(result.step, [])
    for request in result.pending:
        block = next((b for b in projection.data.queued if b.serves(request, result.step, turn)
                      and (b.player, b.kind) not in dropped), None)
        if block is not None:
            use_queued(session, block, request, result.step)
            return True
    return False


def use_queued(session: CampaignSession, block: QueuedBlock, request: Request, step: str) -> None:
    """The first alternative whose conditions hold in what the player sees now
    is read by the decision kinds as if just sent, and checked against the state now; a
    block with no alternative that holds, or whose orders cannot be used now, is dropped
    with its reason (the step then waits for the player as it would have)."""
    campaign, projection = session.campaign, session.projection
    index = block.choose(projection.view(block.player))
    if index is None:
        tried = "; ".join(a.describe() for a in block.alternatives)
        session.record(campaign.drop_queued, player=block.player, queue_id=block.id, step=step,
                       reason=f"no alternative's conditions held when the step opened ({tried})", verdicts=[])
        return
    alternative = block.alternatives[index]
    # A block for a power answers that power's requests (and the player's own), not another's.
    owed = [r for r in projection.answerable_for(block.player)
            if block.power is None or r.power is None or r.power.upper() == block.power]
    reading = kinds_of(projection.ruleset).read_orders(
        alternative.lines, owed, projection.current()[1], projection.scenario, block.player, projection.step)
    verdicts = [v.as_dict() for v in reading.verdicts]
    if not reading.accepted or request.key not in reading.answers:
        refused = "; ".join(f"line {v.number} {v.text!r}: {v.reason}" for v in reading.verdicts if not v.accepted)
        reason = reading.reject_all or (f"its orders could not be used now ({refused})" if not reading.accepted
                                        else f"its orders do not answer {request.prompt}")
        session.record(campaign.drop_queued, player=block.player, queue_id=block.id, step=step,
                       reason=reason, verdicts=verdicts)
        return
    session.record(campaign.use_queued, player=block.player, queue_id=block.id, step=step,
                   alternative=index, lines=[line for _, line in alternative.lines], answers=reading.answers,
                   conditional=conditional_records(reading), verdicts=verdicts)


def clock_facts(session: CampaignSession) -> list[OutgoingMail]:
    campaign, projection, now = session.campaign, session.projection, session.now
    step = projection.step
    if step is None or step not in projection.data.deadlines:
        return []
    rules = rules_for(projection, step)
    deadline = datetime.fromisoformat(projection.data.deadlines[step])
    mail: list[OutgoingMail] = []
    if step not in projection.data.deadlines_passed:
        sent = projection.data.reminders.get(step, [])
        due = [h for h in rules.reminders if h not in sent and deadline - timedelta(hours=h) <= now < deadline]
        if due:
            owing = sorted({r.player for r in projection.pending()})
            for hours in sorted(due, reverse=True):  # an outage sends only the latest reminder
                session.record(campaign.remind, step=step, hours_before=hours, players=owing)
            mail.extend(reminders(session, owing))
        if now >= deadline:
            session.record(campaign.pass_deadline, step=step, at=deadline.isoformat(), by="clock")
    if (step in projection.data.deadlines_passed and step not in projection.data.graces_expired
            and now >= deadline + timedelta(hours=rules.grace_hours)):
        session.record(campaign.expire_grace, step=step,
                       at=(deadline + timedelta(hours=rules.grace_hours)).isoformat())
    return mail

def rules_for(projection: CampaignProjection, step: str | None) -> DeadlineRules:
    clock = projection.data.opened.get(step or "")
    return projection.settings.deadline_rules.for_kind(clock.kind if clock else None)

def reminders(session: CampaignSession, players: list[str]) -> list[OutgoingMail]:
    if session.renderer is None:
        return []
    projection = session.projection
    return [session.renderer.reminder(projection, player,
                                      key=f"reminder:{projection.data.campaign}:{projection.data.version}:{player}")
            for player in players]

def held(projection: CampaignProjection, result: Any, now: datetime) -> bool:
    """A step kept open until its earliest processing time, unless everyone who took
    part said READY or its deadline passed."""
    clock = projection.data.opened.get(result.step)
    if clock is None or now >= datetime.fromisoformat(clock.earliest):
        return False
    if result.step in projection.data.deadlines_passed:
        return False
    players = {u.request.player for u in result.used}
    return not players <= set(projection.data.ready.get(result.step, []))

def wait_for_people(session: CampaignSession, result: Any) -> None:
    """A step stopped for people: the first time it opens (its deadline counted from now);
    later, each decision it asks that was not asked before is recorded, so the player who
    owes it is told (by the reports the campaign's `reports` setting sends)."""
    projection = session.projection
    if result.step not in projection.data.opened:
        open_step(session, result)
        return
    asked = set(projection.data.asked.get(result.step, []))
    new = [r for r in result.pending if r.key not in asked]
    if new:
        session.record(session.campaign.ask, step=result.step, players=sorted({r.player for r in new}),
                       requests=[r.key for r in new])


def open_step(session: CampaignSession, result: Any) -> None:
    projection, now = session.projection, session.now
    kind = result.pending[0].kind
    rules = projection.settings.deadline_rules.for_kind(kind)
    deadline = deadline_for(now, rules)
    owing = sorted({r.player for r in result.pending})
    for player in owing:
        spans = [(datetime.fromisoformat(a), datetime.fromisoformat(b))
                 for a, b in projection.data.absences.get(player, [])]
        deadline = later_of(deadline, spans, rules)
    earliest = now.replace(microsecond=0) + timedelta(hours=rules.earliest_hours)
    session.record(session.campaign.open_step, step=result.step, kind=kind,
                   opened=now.replace(microsecond=0).isoformat(), deadline=deadline.isoformat(),
                   earliest=earliest.isoformat(), players=owing, requests=[r.key for r in result.pending])

def missed(session: CampaignSession, result: Any) -> bool:
    """The campaign's missed-orders policy, for the requests still owed after a
    deadline (issue 6): True when it recorded something that lets the step move on."""
    campaign, projection = session.campaign, session.projection
    rules = rules_for(projection, result.step)
    owing = sorted({r.player for r in result.pending})
    # One miss per player per deadline: later decisions of the same step are not new misses.
    already = set(projection.data.missed_in.get(miss_key(projection, result.step), []))
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
        session.record(campaign.record_miss, player=player, step=result.step, action=action)
        acted = True
    if excused:
        at = deadline_for(session.now, rules)
        session.record(campaign.change_deadline, step=result.step, at=at.isoformat(),
                       reason=f"missed orders excused for {', '.join(excused)}", by=f"missed-orders policy {policy}")
        return True
    for request in projection.pending():
        if request.player in projection.data.civil_disorder or request.player in projection.data.dropped:
            continue  # the engine answers for them, naming why
        session.record(campaign.answer, key=request.key, value=request.default,
                       source=f"default (deadline passed; missed-orders policy {policy})")
        acted = True
    return acted
