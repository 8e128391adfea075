"""Mail into a campaign (DESIGN §1, §6; issue 3): one received mail recorded once —
deduplicated by Message-ID and digest, kept whole in the fact that records it — the
sender checked (SIGNON token and address), and answered: a receipt, a refusal, or the
GM's receipt for the commands they mailed. The same mail again changes nothing and gets
the same replies, derived again from the log.
"""

from __future__ import annotations

from typing import Any, Callable
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.persistence import IntegrityError

from pbem.core.campaign import Campaign, InboundMail
from pbem.core.dispatch import Dispatch, LineDone, dispatch, mail_cause
from pbem.core.gm import GameMaster, read_line
from pbem.core.mailidentity import content_digest, legacy_digest, synthetic_message_id
from pbem.core.messages import Envelope, MailOutcome, OutgoingMail
from pbem.core.orders import (JsonOrdersError, OrderText, orders_from_json, outside_problem, signon_blocks,
                              split_orders, with_json_orders)
from pbem.core.outcomes import CommandError, Outcome, Receipt, reply_subject
from pbem.core.service import CONFLICT_RETRIES, CampaignService, authenticate
from pbem.core.store import CampaignNotFound


def mail_identity(envelope: Envelope) -> tuple[str, UUID]:
    """What makes a received mail the same mail again: its digest, which survives the trace
    headers each delivery adds (`pbem.core.mailidentity`), and the id of the fact that
    records it."""
    digest = content_digest(envelope.raw or envelope.text.encode())
    return digest, InboundMail.create_id(envelope.message_id, digest)


def legacy_mail_id(envelope: Envelope) -> UUID:
    """The id a mail was recorded under before its digest left trace headers out (the digest
    of the raw mail, and so the synthetic Message-ID of a mail without one): old logs hold it."""
    raw = envelope.raw or envelope.text.encode()
    message_id = envelope.message_id
    if message_id == synthetic_message_id(raw):
        message_id = f"<{legacy_digest(raw)[:40]}@pbem.invalid>"
    return InboundMail.create_id(message_id, legacy_digest(raw))


def handle_mail(service: CampaignService, envelope: Envelope) -> MailOutcome:
    """Record one received mail and answer it; the same mail again changes nothing
    and returns the same replies. When another writer appended to the campaign
    meanwhile (a GM command line, a second worker), the mail is read again against the
    campaign as it now stands."""
    for _ in range(CONFLICT_RETRIES - 1):
        try:
            return _handle_once(service, envelope)
        except CampaignConflict as conflict:
            service.forget(conflict.name)
    return _handle_once(service, envelope)


class CampaignConflict(Exception):
    """The campaign changed under a mail's work (not the mail recorded twice)."""

    def __init__(self, name: str):
        super().__init__(f"campaign {name} changed meanwhile")
        self.name = name


def _recorded_again(service: CampaignService, mail_uuid: UUID, name: str | None,
                    envelope: Envelope) -> MailOutcome:
    """After a refused save: the mail was recorded meanwhile (answer it as recorded), or
    the campaign changed (`CampaignConflict`: read the mail again)."""
    existing = _recorded(service, mail_uuid)
    if existing is None:
        raise CampaignConflict(name or "")
    return replay_mail(service, existing, envelope)


def _handle_once(service: CampaignService, envelope: Envelope) -> MailOutcome:
    """One try at `handle_mail`. Each SIGNON…SIGNOFF block is read and answered on its
    own, recorded under the mail's id (the first) or its digest plus its place in the mail."""
    digest, mail_uuid = mail_identity(envelope)
    legacy = _recorded(service, legacy_mail_id(envelope))
    if legacy is not None:  # recorded by an older pbem: answered as it was then
        return replay_mail(service, legacy, envelope)
    text, json_problem = envelope.text, envelope.json_problem
    if envelope.json_orders is not None:
        try:
            text = with_json_orders(orders_from_json(envelope.json_orders), envelope.text)
        except JsonOrdersError as error:
            json_problem = str(error)
    blocks = signon_blocks(text)
    if len(blocks) == 1 or json_problem:
        return handle_block(service, envelope, text, split_orders(text), digest, json_problem)
    outcomes = []
    for number, block in enumerate(blocks):
        parts = split_orders(block.text, first_line=block.first_line)
        outside = outside_problem(text) if number == 0 else None
        if outside:
            parts.problems.insert(0, outside)
        outcomes.append(handle_block(service, envelope, block.text, parts,
                                     digest if number == 0 else f"{digest}:block{number + 1}", ""))
    return MailOutcome(duplicate=all(o.duplicate for o in outcomes), campaign=outcomes[0].campaign,
                       first_source_key=outcomes[0].first_source_key,
                       replies=tuple(reply for o in outcomes for reply in o.replies))


def _recorded(service: CampaignService, record_id: UUID) -> Any | None:
    """The stored record (a received mail, a line done, a dispatch) of that id, if any."""
    try:
        return service.store.repository.get(record_id)
    except AggregateNotFoundError:
        return None


def handle_block(service: CampaignService, envelope: Envelope, text: str, parts: OrderText, digest: str,
                 json_problem: str) -> MailOutcome:
    """Record and answer one order block of a mail (the whole mail when it has one)."""
    mail_uuid = InboundMail.create_id(envelope.message_id, digest)
    existing = _recorded(service, mail_uuid)
    if existing is not None:
        return replay_mail(service, existing, envelope)
    name = parts.signon.campaign if parts.signon else None

    def inbound(outcome: str, versions: list[int]) -> InboundMail:
        return InboundMail(message_id=envelope.message_id, digest=digest, sender=envelope.sender.lower(),
                           source_key=envelope.source_key, raw=envelope.raw_compressed(), campaign=name,
                           campaign_versions=versions, outcome=outcome)

    if "@" not in envelope.sender:
        # Nobody to answer and nobody to trust: keep the mail, change nothing else.
        try:
            service.store.save(inbound("refused: no sender address", []))
        except IntegrityError:
            pass
        return MailOutcome(campaign=name)
    refusal = json_problem or refusal_reason(parts, envelope)
    player, copy_to, role = "", None, ""
    if not refusal:
        try:  # against the campaign as the service holds it (a daemon's: no reload)
            projection = service.live(name)
            player, copy_to = authenticate(projection, parts.signon.player, parts.signon.token, envelope.sender)
            role = projection.data.players[player].role
        except (CommandError, CampaignNotFound) as error:
            refusal = str(error)
    if refusal:
        try:
            service.store.save(inbound("refused: " + refusal, []))
        except IntegrityError:
            return _recorded_again(service, mail_uuid, name, envelope)
        return MailOutcome(campaign=name, replies=(refusal_mail(service, envelope, refusal, mail_uuid),))
    try:
        if parts.gm and role == "gm":
            outcome = gm_mail(service, name, player, parts, envelope.message_id,
                              lambda versions: inbound(f"orders of {player}", versions), mail_uuid)
        else:
            outcome = service.submit(name, player, text, mail_id=str(mail_uuid), in_reply_to=envelope.message_id,
                                     inbound=lambda versions: inbound(f"orders of {player}", versions), split=parts,
                                     copy_to=copy_to)
    except IntegrityError:
        return _recorded_again(service, mail_uuid, name, envelope)
    return MailOutcome(campaign=name, replies=tuple(outcome.mail))

def refusal_reason(parts: OrderText, envelope: Envelope) -> str:
    if parts.signon_error:
        return parts.signon_error
    if parts.signon is None:
        if envelope.json_orders is not None:
            return "a JSON attachment must come with a SIGNON line in the mail"
        return ("this mail has no SIGNON line; start your orders with "
                "SIGNON <player> <campaign> <token>")
    return ""

def refusal_mail(service: CampaignService, envelope: Envelope, reason: str, mail_uuid: Any) -> OutgoingMail:
    if service.renderer is None:
        return OutgoingMail(key=f"refusal:{mail_uuid}", to=envelope.sender, subject=reply_subject(envelope.subject),
                            text=reason + "\n")
    return service.renderer.refusal(envelope.sender, reply_subject(envelope.subject), reason,
                                 key=f"refusal:{mail_uuid}", in_reply_to=envelope.message_id)

def _line_done(service: CampaignService, mail_id: UUID | None, number: int) -> LineDone | None:
    return None if mail_id is None else _recorded(service, LineDone.create_id(mail_id, number))


def _stored_mail(service: CampaignService, cause: str) -> list[OutgoingMail]:
    stored = _recorded(service, Dispatch.create_id(cause))
    return [] if stored is None else stored.outgoing  # None: the line caused no mail


def replay_mail(service: CampaignService, inbound: InboundMail, envelope: Envelope) -> MailOutcome:
    """The replies a recorded mail caused: as they were saved with its facts (`Dispatch`),
    or, for a refusal and a mail recorded before pbem kept them, derived again from the log."""
    stored = _recorded(service, Dispatch.create_id(mail_cause(inbound.id)))
    if stored is not None:
        return MailOutcome(duplicate=True, campaign=inbound.campaign, replies=tuple(stored.outgoing),
                           first_source_key=inbound.source_key)
    if inbound.outcome.startswith("refused: ") or not inbound.campaign_versions:
        reason = inbound.outcome.removeprefix("refused: ")
        return MailOutcome(duplicate=True, campaign=inbound.campaign,
                           replies=(refusal_mail(service, envelope, reason, inbound.id),),
                           first_source_key=inbound.source_key)
    first, last = inbound.campaign_versions
    name = inbound.campaign
    projection = service.loader.load(name, upto=last)
    events = list(service.loader.campaign_events(name, gt=first - 1, lte=last))
    orders = next((e for e in events if isinstance(e, (Campaign.OrdersSubmitted, Campaign.OrdersRejected))), None)
    player = orders.player if orders is not None else inbound.outcome.removeprefix("orders of ")
    record = projection.data.players[player]
    receipt = Receipt(campaign=name, player=player, to=record.address, timezone=record.timezone,
                      accepted=orders is None or isinstance(orders, Campaign.OrdersSubmitted),
                      reason=getattr(orders, "reason", ""), verdicts=getattr(orders, "verdicts", []),
                      step=getattr(orders, "step", None))
    outcome = Outcome(name, receipt, sum(1 for e in events if isinstance(e, Campaign.StepResolved)))
    receipt.steps_resolved = outcome.steps_resolved
    service.fill_owed(receipt, projection)
    mail = service.mail_for(outcome, projection, first - 1, events,
                            (f"receipt:{name}:{inbound.id}", envelope.message_id))
    return MailOutcome(duplicate=True, campaign=name, replies=tuple(mail), first_source_key=inbound.source_key)


def gm_mail(service: CampaignService, name: str, player: str, parts: OrderText, in_reply_to: str | None,
             inbound: Callable[[list[int]], InboundMail] | None, mail_id: UUID | None = None) -> Outcome:
    """Carry out the GM commands of a mail from the GM, each a fact of its own. Each line
    done is recorded with its facts (`LineDone`): the mail handled again after a kill
    between two lines skips those and answers them as before."""
    outcome = Outcome(name)
    lines = []
    done_before = {number: done for number, _ in parts.gm
                   if (done := _line_done(service, mail_id, number)) is not None}
    before = min((done.before for done in done_before.values()), default=service.campaign(name).version)
    for number, line in parts.gm:
        if number in done_before:
            lines.append(f"line {number}: {line}\n  done: {done_before[number].reply}")
            outcome.mail.extend(_stored_mail(service, done_before[number].cause))
            continue
        master = GameMaster(service)
        try:
            reply, run = read_line(master, name, line)
            master.doing = (str(mail_id), number, reply) if mail_id is not None else None
            done = run()
        except (CommandError, ValueError) as error:
            lines.append(f"line {number}: {line}\n  refused: {error}")
            continue
        lines.append(f"line {number}: {line}\n  done: {reply}")
        outcome.mail.extend(done.mail)
        outcome.steps_resolved += done.steps_resolved
    if service.renderer is not None:
        record = service.live(name).data.players[player]
        outcome.mail.append(service.renderer.notice(record.address, f"[{name}] your GM commands", "GM commands",
                                                 "\n".join(lines), key=f"gm-receipt:{name}:{before}",
                                                 in_reply_to=in_reply_to))
    if inbound is not None:  # with the receipt and the announcements, to answer the same mail again alike
        mail = inbound([before + 1, service.campaign(name).version])
        service.store.save(mail, *([dispatch(mail_cause(mail.id), name, outcome.mail)] if outcome.mail else []))
    return outcome
