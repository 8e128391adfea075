"""Report models: everything a report template may show, built from a projection for
one viewer (a player, the public gazette, or the GM).

This is the hidden-information boundary of the report side (DESIGN §5): a template
receives one of these models (as plain data), never the projection. A player's model is
built only from that player's view, that player's chronicle, that player's decisions and
policies, and the public parts of everybody else's; the GM's model is the exception by
design and adds the audit trail a dispute needs. Nothing here names a game: the
declared part of the ruleset's view (`pbem.core.view.GameView`: `turn_label`, `powers`,
`players`, `sections`, `closing`, `map`) is all that is read, and every key of it may be
missing.
"""

from __future__ import annotations

import dataclasses
from datetime import datetime, timezone
from functools import lru_cache
from typing import Any, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import msgspec
from pydantic import BaseModel, ConfigDict

from pbem.core.decisions import LineVerdict, kinds_of
from pbem.core.engine import ALL, Request
from pbem.core.projection import CampaignProjection
from pbem.core.view import (GameMap, GameView, MapEvent, MapMove, PowerEntry, Table, ViewError, as_text,
                            checked_map)
from pbem.core.service import Receipt
from pbem.reports.text import wrap

Audience = Literal["player", "public", "gm"]
TOKEN_PLACEHOLDER = "<your-token>"


class ReportError(Exception):
    """A report that cannot be built (unknown viewer, unusable map); the message is for the user."""


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


# -- small parts -------------------------------------------------------------
class Deadline(_Model):
    """A deadline as the reader should see it: in their own zone, with UTC alongside."""

    utc: str
    local: str
    utc_text: str
    timezone: str
    note: str = ""


class Roll(_Model):
    key: str = ""
    purpose: str
    rule: str = ""
    sides: int
    value: int
    forced: bool = False


class Event(_Model):
    """A chronicle line. `seen_by` is filled only in the GM's report, for lines not
    everybody saw ("" when public; "GM only" when nobody else)."""

    text: str
    rule: str = ""
    rolls: list[Roll] = []
    seen_by: str = ""


class StepChronicle(_Model):
    """What happened in one step, in the order it happened."""

    step: str
    events: list[Event]


class UsedDecision(_Model):
    """A decision answered in a resolved step and where the answer came from (orders,
    a policy, a conditional line, the deadline's default). `prompt` and `answer` are
    only filled for the decision's owner and the GM."""

    step: str
    key: str
    kind: str
    power: str | None = None
    player: str
    player_name: str
    source: str
    prompt: str | None = None
    answer: str | None = None


class Waiting(_Model):
    """A player the step in progress still waits for, and for which of their powers:
    who, never what (what they owe is theirs)."""

    player: str
    name: str
    powers: list[str] = []


class PolicyInForce(_Model):
    id: str
    player: str
    kind: str
    power: str | None = None
    text: str


class QueuedInForce(_Model):
    """A queued block not yet used: what it will answer and its alternatives' conditions."""

    id: str
    player: str
    target: str
    alternatives: list[str] = []


class OwedDecision(_Model):
    key: str
    kind: str
    power: str | None = None
    prompt: str
    rule: str = ""
    options: list[str] = []
    form: str


class StepHash(_Model):
    step: str
    version: int
    state_hash: str
    recorded_hash: str
    matches: bool


class Divergence(_Model):
    step: str
    version: int
    recorded: str
    computed: str
    reason: str


class AuditRoll(Roll):
    step: str


class PendingDecision(_Model):
    key: str
    kind: str
    player: str
    power: str | None = None
    prompt: str
    default: str
    sealed: bool


class ReceivedAnswer(_Model):
    """An answer already in the log for the step in progress (a sealed batch waiting
    for its last member shows here)."""

    key: str
    source: str
    value: str


class Audit(_Model):
    """The GM's dispute tools: every roll (with its stream key, so a revealed secret
    re-derives it), every answer's source, every state hash."""

    rolls: list[AuditRoll] = []
    hashes: list[StepHash] = []
    divergences: list[Divergence] = []
    pending: list[PendingDecision] = []
    received: list[ReceivedAnswer] = []


class Report(_Model):
    """One report for one viewer, as of one log version."""

    audience: Audience
    campaign: str
    game: str
    engine: str
    viewer: str
    viewer_name: str
    turn_label: str
    step: str | None = None
    finished: bool = False
    log_version: int
    since_version: int
    from_address: str = ""
    commitment: str | None = None
    revealed_secret: str | None = None
    deadline: Deadline | None = None
    standings: Table | None = None
    powers: Table | None = None
    sections: list[Table] = []
    closing: list[Table] = []
    chronicle: list[StepChronicle] = []
    decisions: list[UsedDecision] = []
    policies: list[PolicyInForce] = []
    queued: list[QueuedInForce] = []
    queue_notes: list[str] = []  # queued blocks used or dropped since the last report
    owed: list[OwedDecision] = []
    waiting: list[Waiting] = []  # who else the step in progress waits for (a player's, the gazette's)
    order_form: str | None = None
    map: GameMap | None = None
    audit: Audit | None = None


class ReceiptReport(_Model):
    """A receipt as the player reads it: every line echoed, what it answered, what is
    still owed and the form that answers it."""

    campaign: str
    player: str
    accepted: bool
    reason: str = ""
    step: str | None = None
    steps_resolved: int = 0
    from_address: str = ""
    lines: list[LineVerdict] = []
    unused: list[int] = []
    answered: list[str] = []
    policies: list[str] = []
    queued: list[str] = []
    press: list[str] = []
    explained: list[str] = []
    help: list[str] = []
    campaigns: list[str] = []
    report_follows: bool = False
    owed: list[OwedDecision] = []
    order_form: str | None = None
    deadline: Deadline | None = None
    not_echoed: int = 0  # lines past ECHO_LIMIT: a mail of junk must not come back a thousandfold
    paused: str | None = None  # why the GM paused the campaign, while it is paused


ECHO_LIMIT = 100


class Note(_Model):
    """A short message: a refusal, or press relayed between players."""

    title: str
    text: str
    campaign: str | None = None
    sender: str | None = None
    from_address: str = ""
    footer: str = ""


# -- building ----------------------------------------------------------------
def audience_of(projection: CampaignProjection, viewer: str) -> Audience:
    """Which report a viewer gets: a player with the GM role gets the GM's; any other
    non-player role (an observer) gets the public gazette."""
    if viewer in ("public", "gm"):
        return viewer
    record = projection.data.players.get(viewer)
    if record is None:
        known = ", ".join(sorted(projection.data.players)) or "none"
        raise ReportError(f"{viewer!r} is not a player of campaign {projection.data.campaign} (players: {known})")
    return {"gm": "gm", "player": "player"}.get(record.role, "public")


def default_since(projection: CampaignProjection) -> int:
    """Where a report asked for without a version starts: just before the last resolved
    step, so it tells that step and the one in progress."""
    versions = [r.version for r in projection.resolved]
    return versions[-2] if len(versions) >= 2 else 0


def build_report(projection: CampaignProjection, viewer: str, *, since_version: int | None = None,
                 from_address: str = "") -> Report:
    """The report `viewer` gets of everything after log version `since_version`."""
    audience = audience_of(projection, viewer)
    since = default_since(projection) if since_version is None else since_version
    who = viewer if audience == "player" else audience
    view = _view(projection, who)
    data = projection.data
    record = data.players.get(viewer)
    finished = projection.finished
    pending = [] if audience != "player" or finished else projection.pending_for(viewer)
    owed = [_owed(projection, r) for r in pending]
    return Report(
        audience=audience,
        campaign=data.campaign,
        game=str(getattr(projection.ruleset, "title", "") or data.ruleset),
        engine=projection.engine_version,
        viewer=viewer,
        viewer_name=record.name if record else {"gm": "Game master", "public": "Gazette"}.get(viewer, viewer),
        turn_label=view.turn_label or data.step or ("game over" if finished else ""),
        step=None if finished else data.step,
        finished=finished,
        log_version=data.version,
        since_version=since,
        from_address=from_address,
        commitment=data.commitment if since == 0 or audience == "gm" else None,
        revealed_secret=data.revealed_secret,
        deadline=None if finished else deadline(data.deadlines.get(data.step or ""),
                                                record.timezone if record else "UTC"),
        standings=_standings(view.players),
        powers=_powers(view.powers, data.players),
        sections=view.sections,
        closing=view.closing,
        chronicle=_chronicle(projection, who, since),
        decisions=_decisions(projection, viewer, audience, since),
        policies=[PolicyInForce(id=p.id, player=p.player, kind=p.kind, power=p.power, text=p.text)
                  for p in data.policies if audience == "gm" or (audience == "player" and p.player == viewer)],
        queued=[QueuedInForce(id=b.id, player=b.player, target=b.target(),
                              alternatives=[a.describe() for a in b.alternatives])
                for b in data.queued if audience == "gm" or (audience == "player" and b.player == viewer)],
        queue_notes=[n.text for n in data.queue_notes if n.version > since
                     and (audience == "gm" or (audience == "player" and n.player == viewer))],
        owed=owed,
        waiting=[] if finished or audience == "gm" else _waiting(projection, viewer),
        order_form=order_form(viewer, data.campaign, owed) if owed else None,
        map=turn_map(projection, who, since, view),
        audit=_audit(projection, since) if audience == "gm" else None,
    )


def build_receipt(receipt: Receipt, *, from_address: str = "") -> ReceiptReport:
    owed = [OwedDecision(key=o.key, kind=o.kind, power=o.power, prompt=o.prompt, rule=o.rule, form=o.default_form)
            for o in receipt.owed]
    return ReceiptReport(
        campaign=receipt.campaign, player=receipt.player, accepted=receipt.accepted, reason=receipt.reason,
        step=receipt.step, steps_resolved=receipt.steps_resolved, from_address=from_address,
        lines=list(receipt.verdicts[:ECHO_LIMIT]), unused=list(receipt.unused),
        not_echoed=max(0, len(receipt.verdicts) - ECHO_LIMIT),
        answered=list(receipt.answered), policies=list(receipt.policies), queued=list(receipt.queued),
        press=list(receipt.press), explained=list(receipt.explained), report_follows=receipt.report_follows,
        help=list(receipt.help), campaigns=list(receipt.campaigns), paused=receipt.paused,
        owed=owed, order_form=order_form(receipt.player, receipt.campaign, owed) if owed else None,
        deadline=deadline(receipt.deadline, receipt.timezone))


def order_form(player: str, campaign: str, owed: list[OwedDecision]) -> str:
    """The reply that accepts every default: sent back unchanged (with the token filled
    in) it answers all that is owed. Prompts ride along as `#` comments, which the
    order reader ignores."""
    lines = [f"SIGNON {player} {campaign} {TOKEN_PLACEHOLDER}"]
    for item in owed:
        lines.extend(wrap(item.prompt, indent="# ").splitlines())
        lines.extend(item.form.splitlines())
    lines.append("SIGNOFF")
    return "\n".join(lines)


@lru_cache(maxsize=256)
def deadline(at: str | None, zone: str) -> Deadline | None:
    """An ISO UTC instant shown in the reader's zone (the zone's own abbreviation)."""
    if not at:
        return None
    when = datetime.fromisoformat(at)
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    note = ""
    try:
        tz = ZoneInfo(zone)
    except (ZoneInfoNotFoundError, ValueError):
        tz, note = ZoneInfo("UTC"), f"unknown time zone {zone!r}; times are in UTC"
    local = when.astimezone(tz)
    utc = when.astimezone(timezone.utc)
    return Deadline(utc=utc.isoformat(), local=f"{local:%a %d %b %Y, %H:%M} {local.tzname()}",
                    utc_text=f"{utc:%a %d %b %Y, %H:%M} UTC", timezone=str(tz.key), note=note)


def game_map(raw: Any) -> GameMap | None:
    """The view's map, or None when the game has none (yet)."""
    if not raw:
        return None
    try:
        return checked_map(raw)
    except ViewError as error:
        raise ReportError(str(error)) from None


def turn_map(projection: CampaignProjection, viewer: str, since: int, view: GameView) -> GameMap | None:
    """The viewer's map with what happened since log version `since` drawn on it: the
    units that moved, as the viewer's own view showed them then and shows them now (so
    nothing the viewer could not see), the battles and sieges of the chronicle lines the
    viewer may read, and the viewer's theatre (`theatre`)."""
    gmap = view.map
    if gmap is None:
        return None
    events = [MapEvent(area=c.mark.area, kind=c.mark.kind, result=c.mark.result)
              for c in projection.chronicle(viewer, since) if c.mark is not None]
    before = game_map((projection.view_before(viewer, since) or {}).get("map"))
    moves = [*gmap.moves, *(moves_between(before, gmap) if before is not None else [])]
    events = [*gmap.events, *events]
    mine = {code for code, entry in view.powers.items() if entry.player == viewer}
    focus = theatre(gmap, mine, moves, events)
    if moves == gmap.moves and events == gmap.events and focus == gmap.focus:
        return gmap
    return gmap.model_copy(update={"moves": moves, "events": events, "focus": focus})


def theatre(gmap: GameMap, powers: set[str], moves: list[MapMove], events: list[MapEvent]) -> list[str]:
    """A reader's theatre: the areas their powers control, where units moved and battles
    were fought, and the areas next to those; none for a reader without powers."""
    if not powers:
        return []
    core = {a.id for a in gmap.areas if a.controller in powers} | {m.a for m in moves} | {m.b for m in moves} | {
        e.area for e in events}
    near = {link.b for link in gmap.links if link.a in core} | {link.a for link in gmap.links if link.b in core}
    return sorted(core | near)


def moves_between(before: GameMap, now: GameMap) -> list[MapMove]:
    """Units standing in one area before and in another now, grouped by the way they
    went. A unit is followed by its name on the map: a name shown in more than one area
    (counters without ids) is not followed."""
    was, now_at = _single_places(before), _single_places(now)
    ways: dict[tuple[str, str], list[str]] = {}
    for unit, area in now_at.items():
        old = was.get(unit)
        if old is not None and old != area:
            ways.setdefault((old, area), []).append(unit)
    return [MapMove(a=a, b=b, units=units) for (a, b), units in sorted(ways.items())]


def _single_places(gmap: GameMap) -> dict[str, str]:
    places: dict[str, str | None] = {}
    for area in gmap.areas:
        for unit in area.units:
            places[unit] = None if unit in places else area.id
    return {unit: area for unit, area in places.items() if area is not None}


def _view(projection: CampaignProjection, viewer: str) -> GameView:
    try:
        return projection.game_view(viewer)
    except ViewError as error:
        raise ReportError(str(error)) from None


def _label(key: str) -> str:
    words = key.replace("_", " ")
    return words.upper() if len(words) <= 3 else words.capitalize()


def _standings(players: dict[str, dict[str, Any]]) -> Table | None:
    """The view's `players` as a table: a name column, then every plain value the view
    gives (VP, seat …) in the order they first appear."""
    if not players:
        return None
    keys: list[str] = []
    for entry in players.values():
        keys.extend(k for k, v in entry.items()
                    if k != "name" and k not in keys and isinstance(v, (str, int, float, bool)))
    rows = [[as_text(entry.get("name", pid))] + [as_text(entry.get(k, "")) for k in keys]
            for pid, entry in players.items()]
    return Table(title="Players", columns=["Player"] + [_label(k) for k in keys], rows=rows)


def _powers(powers: dict[str, PowerEntry], players: dict) -> Table | None:
    if not powers:
        return None
    rows = []
    for code, entry in powers.items():
        holder = entry.player
        name = players[holder].name if holder in players else as_text(holder)
        rows.append([code, code if entry.name is None else entry.name, name])
    return Table(title="Powers", columns=["Code", "Power", "Player"], rows=rows)


def _seen_by(visible_to: tuple[str, ...]) -> str:
    if ALL in visible_to:
        return ""
    return ", ".join(visible_to) or "GM only"


def _chronicle(projection: CampaignProjection, who: str, since: int) -> list[StepChronicle]:
    steps: list[StepChronicle] = []
    for entry in projection.chronicle(who, since):
        event = Event(text=entry.text, rule=entry.rule, rolls=[Roll.model_validate(r) for r in entry.rolls],
                      seen_by=_seen_by(entry.visible_to) if who == "gm" else "")
        if steps and steps[-1].step == entry.step:
            steps[-1] = StepChronicle(step=entry.step, events=[*steps[-1].events, event])
        else:
            steps.append(StepChronicle(step=entry.step, events=[event]))
    return steps


def _answer_line(projection: CampaignProjection, request: Request, value: Any) -> str:
    """An answer written as the order line(s) that would have given it."""
    return kinds_of(projection.ruleset).order_form(msgspec.structs.replace(request, default=value))


def _decisions(projection: CampaignProjection, viewer: str, audience: Audience, since: int) -> list[UsedDecision]:
    """Answers used by the steps resolved since `since`. The viewer sees their own in
    full; of everybody else's, only unsealed ones, and only who answered what kind of
    decision from which source — the answer itself reaches others through the rules'
    own chronicle, which knows what is public (a card played face down is not)."""
    players = projection.data.players
    used = []
    for resolved in projection.resolved:
        if resolved.version <= since:
            continue
        for item in resolved.result.used:
            request = item.request
            full = audience == "gm" or request.player == viewer
            if not full and request.sealed:
                continue
            used.append(UsedDecision(
                step=resolved.step, key=request.key, kind=request.kind, power=request.power,
                player=request.player,
                player_name=players[request.player].name if request.player in players else request.player,
                source=item.answer.source,
                prompt=request.prompt if full else None,
                answer=_answer_line(projection, request, item.answer.value) if full else None,
            ))
    return used


def _waiting(projection: CampaignProjection, viewer: str) -> list[Waiting]:
    """Everybody but `viewer` who still owes the step in progress, in the order the
    rules asked them, with the powers they answer for."""
    players = projection.data.players
    found: dict[str, list[str]] = {}
    for request in projection.pending():
        if request.player == viewer:
            continue
        powers = found.setdefault(request.player, [])
        if request.power and request.power not in powers:
            powers.append(request.power)
    return [Waiting(player=pid, name=players[pid].name if pid in players else pid, powers=powers)
            for pid, powers in found.items()]


def _owed(projection: CampaignProjection, request: Request) -> OwedDecision:
    return OwedDecision(key=request.key, kind=request.kind, power=request.power, prompt=request.prompt,
                        rule=request.rule, options=list(request.options),
                        form=kinds_of(projection.ruleset).order_form(request))


def _audit(projection: CampaignProjection, since: int) -> Audit:
    rolls: list[AuditRoll] = []
    # What the report covers, from the log alone: never what this process happens to
    # still hold (a restarted daemon holds every step since the snapshot it loaded).
    told = [r for r in projection.resolved if r.version > since]
    results = [r.result for r in told]
    current = projection.current()[0]
    if current is not None and not current.completed:
        results.append(current)
    for result in results:
        for roll in result.rolls:
            rolls.append(AuditRoll(step=result.step, **roll.as_dict()))
    return Audit(
        rolls=rolls,
        hashes=[StepHash(step=r.step, version=r.version, state_hash=r.state_hash, recorded_hash=r.recorded_hash,
                         matches=r.state_hash == r.recorded_hash) for r in told],
        divergences=[Divergence(**dataclasses.asdict(d)) for d in projection.divergences],
        pending=[PendingDecision(key=r.key, kind=r.kind, player=r.player, power=r.power, prompt=r.prompt,
                                 default=_answer_line(projection, r, r.default), sealed=r.sealed)
                 for r in projection.pending()],
        received=[ReceivedAnswer(key=k, source=a.source, value=as_text(a.value))
                  for k, a in sorted(projection.data.inputs.items())],
    )


