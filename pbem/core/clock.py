"""The clock of a campaign (issue 6): reminders, deadlines and graces passing, the
missed-orders policy, and when a step that waits for people opens and may close.

The clock only appends facts (`StepOpened`, `StepAsked`, `ReminderSent`, `DeadlinePassed`,
`GraceExpired`, `MissRecorded`, `DeadlineChanged`); the projector never reads the time.
Each fact is recorded once per step and deadline, so an outage or a clock that jumps
never skips or doubles one, and the next step's deadline counts from when it opened.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from pbem.core.campaign import Campaign
from pbem.core.deadlines import DeadlineRules, deadline_for, later_of
from pbem.core.messages import OutgoingMail
from pbem.core.outcomes import Outcome
from pbem.core.projection import CampaignProjection

if TYPE_CHECKING:
    from pbem.core.service import CampaignService


def miss_key(projection: CampaignProjection, step: str) -> str:
    """One miss per player per deadline: later decisions of the same step are no new misses."""
    return f"{step}@{projection.data.deadlines.get(step, '')}"


def tick(service: CampaignService, now: datetime) -> list[Outcome]:
    """The clock: remind, pass due deadlines and graces, process held steps. Each is
    recorded as a fact once, so an outage or a clock that jumps never skips or doubles
    one; the next step's deadline is counted from when it really opened."""
    now = now or service.clock()
    outcomes = []
    for name in service.names():
        campaign, projection = service.open_campaign(name)
        before = campaign.version
        outcome = Outcome(name)
        if not projection.finished and not projection.data.paused:
            outcome.mail.extend(clock_facts(service, campaign, projection, now))
            outcome.steps_resolved = service.advance(campaign, projection, now)
        if campaign.version == before:
            service._open_campaigns[name] = (campaign, projection)
            continue
        service.save(campaign, projection)
        outcome.mail.extend(service.batch_reports(projection, before, outcome.steps_resolved))
        outcomes.append(outcome)
    return outcomes

def clock_facts(service: CampaignService, campaign: Campaign, projection: CampaignProjection,
                now: datetime) -> list[OutgoingMail]:
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
                service.record(campaign, projection, campaign.remind, step=step, hours_before=hours, players=owing)
            mail.extend(reminders(service, projection, owing, deadline))
        if now >= deadline:
            service.record(campaign, projection, campaign.pass_deadline, step=step, at=deadline.isoformat(),
                           by="clock")
    if (step in projection.data.deadlines_passed and step not in projection.data.graces_expired
            and now >= deadline + timedelta(hours=rules.grace_hours)):
        service.record(campaign, projection, campaign.expire_grace, step=step,
                       at=(deadline + timedelta(hours=rules.grace_hours)).isoformat())
    return mail

def rules_for(projection: CampaignProjection, step: str | None) -> DeadlineRules:
    clock = projection.data.opened.get(step or "")
    return projection.settings.deadline_rules.for_kind(clock.kind if clock else None)

def reminders(service: CampaignService, projection: CampaignProjection, players: list[str],
              deadline: datetime) -> list[OutgoingMail]:
    if service.renderer is None:
        return []
    return [service.renderer.reminder(projection, player,
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

def wait_for_people(service: CampaignService, campaign: Campaign, projection: CampaignProjection, result: Any,
                    now: datetime) -> None:
    """A step stopped for people: the first time it opens (its deadline counted from now);
    later, each decision it asks that was not asked before is recorded, so the player who
    owes it is told (by the reports the campaign's `reports` setting sends)."""
    if result.step not in projection.data.opened:
        open_step(service, campaign, projection, result, now)
        return
    asked = set(projection.data.asked.get(result.step, []))
    new = [r for r in result.pending if r.key not in asked]
    if new:
        service.record(campaign, projection, campaign.ask, step=result.step,
                       players=sorted({r.player for r in new}), requests=[r.key for r in new])


def open_step(service: CampaignService, campaign: Campaign, projection: CampaignProjection, result: Any,
              now: datetime) -> None:
    kind = result.pending[0].kind
    rules = projection.settings.deadline_rules.for_kind(kind)
    deadline = deadline_for(now, rules)
    owing = sorted({r.player for r in result.pending})
    for player in owing:
        spans = [(datetime.fromisoformat(a), datetime.fromisoformat(b))
                 for a, b in projection.data.absences.get(player, [])]
        deadline = later_of(deadline, spans, rules)
    earliest = now.replace(microsecond=0) + timedelta(hours=rules.earliest_hours)
    service.record(campaign, projection, campaign.open_step, step=result.step, kind=kind,
                   opened=now.replace(microsecond=0).isoformat(), deadline=deadline.isoformat(),
                   earliest=earliest.isoformat(), players=owing, requests=[r.key for r in result.pending])

def missed(service: CampaignService, campaign: Campaign, projection: CampaignProjection, result: Any,
           now: datetime) -> bool:
    """The campaign's missed-orders policy, for the requests still owed after a
    deadline (issue 6): True when it recorded something that lets the step move on."""
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
        service.record(campaign, projection, campaign.record_miss, player=player, step=result.step, action=action)
        acted = True
    if excused:
        at = deadline_for(now, rules)
        service.record(campaign, projection, campaign.change_deadline, step=result.step, at=at.isoformat(),
                       reason=f"missed orders excused for {', '.join(excused)}", by=f"missed-orders policy {policy}")
        return True
    for request in projection.pending():
        if request.player in projection.data.civil_disorder or request.player in projection.data.dropped:
            continue  # the engine answers for them, naming why
        service.record(campaign, projection, campaign.answer, key=request.key, value=request.default,
                       source=f"default (deadline passed; missed-orders policy {policy})")
        acted = True
    return acted
