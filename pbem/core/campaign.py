"""The facts of a campaign (DESIGN §3): every event is an input — something received or
decided by a person or a clock — never something the rules computed. The only
derivation recorded is a check: `StepResolved` carries the state hash.

Five aggregates live in one store:
- `Campaign`: the campaign's log.
- `DiceVault`: the campaign's dice secret, kept apart so the campaign log can be handed
  to players without it (its sha256 is in `Campaign.Created`).
- `InboundMail`: one per received mail (id from Message-ID and digest), saved in the same
  transaction as the campaign facts it caused; a second copy of the mail fails to save.
- `Dispatch` (`pbem.core.dispatch`): the mail a piece of work caused, saved with its facts.
- `LineDone` (`pbem.core.dispatch`): one line of a GM's mail done, saved with its facts.
"""

from __future__ import annotations

from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

import msgspec
from eventsourcing.domain import Aggregate, event
from eventsourcing.persistence import Transcoding

from pbem.core.engine import Policy


def campaign_id(name: str) -> UUID:
    return uuid5(NAMESPACE_URL, f"pbem:campaign:{name}")


class PlayerRecord(msgspec.Struct, frozen=True):
    """A player as the campaign knows them (the token only as its hash)."""

    id: str
    name: str
    address: str
    token_hash: str
    timezone: str = "UTC"
    role: str = "player"


class PolicyRecord(msgspec.Struct, frozen=True):
    """A standing policy or a conditional order line, as recorded: `conditions` are
    (subject, operator, value) triples; a conditional line holds for its `step` only."""

    id: str
    player: str
    kind: str
    answer_text: str
    text: str
    power: str | None = None
    conditions: list[tuple[str, str, str]] = []
    step: str | None = None

    def policy(self) -> Policy:
        return Policy(self.id, self.player, self.kind, self.answer_text, self.power,
                      tuple(tuple(c) for c in self.conditions), self.step)


class _StructAsDict(Transcoding):
    """A record inside a fact, stored as the plain object it was before it had a type."""

    def encode(self, obj: msgspec.Struct) -> dict:
        return msgspec.to_builtins(obj)

    def decode(self, data: dict) -> msgspec.Struct:
        return msgspec.convert(data, self.type)


class PlayerRecordAsDict(_StructAsDict):
    type = PlayerRecord
    name = "pbem_player"


class PolicyRecordAsDict(_StructAsDict):
    type = PolicyRecord
    name = "pbem_policy"


TRANSCODINGS: tuple[Transcoding, ...] = (PlayerRecordAsDict(), PolicyRecordAsDict())


class Campaign(Aggregate):
    """A campaign's log. Its own state holds only what commands must check.

    Each fact is a class of its own, declared next to the command that records it; the
    classes keep the names (and so the stored topics, `pbem.core.campaign:Campaign.X`)
    they had when pbem named them by string. A fact whose shape changed carries a
    `class_version` and upgrades older copies with `upcast_vN_vN+1` as they are read.
    """

    # 2: players are `PlayerRecord`s (version 1 snapshots of the aggregate hold dicts).
    class_version = 2

    @staticmethod
    def upcast_v1_v2(state: dict) -> None:
        state["players"] = {player: PlayerRecord(id=player, **record)
                            for player, record in state.get("players", {}).items()}

    @staticmethod
    def create_id(name: str, **_: Any) -> UUID:
        return campaign_id(name)

    class Created(Aggregate.Created):
        name: str
        ruleset: str
        ruleset_version: str
        scenario: dict[str, Any]  # the ruleset's own scenario data
        scenario_digest: str
        options: dict[str, Any]  # the ruleset's own options
        dice_commitment: str
        settings: dict[str, Any]  # checked as `settings.CampaignSettings` when the campaign was created

    @event(Created)
    def __init__(self, name: str, ruleset: str, ruleset_version: str, scenario: dict[str, Any], scenario_digest: str,
                 options: dict[str, Any], dice_commitment: str, settings: dict[str, Any]):
        self.name = name
        self.ruleset = ruleset
        self.players: dict[str, PlayerRecord] = {}

    class PlayerJoined(Aggregate.Event):
        player: str
        name: str
        address: str
        token_hash: str
        timezone: str
        role: str

    @event(PlayerJoined)
    def join(self, player: str, name: str, address: str, token_hash: str, timezone: str, role: str) -> None:
        self.players[player] = PlayerRecord(player, name, address, token_hash, timezone, role)

    class TokenRotated(Aggregate.Event):
        player: str
        token_hash: str
        reason: str

    @event(TokenRotated)
    def rotate_token(self, player: str, token_hash: str, reason: str) -> None:
        self.players[player] = msgspec.structs.replace(self.players[player], token_hash=token_hash)

    class OrdersSubmitted(Aggregate.Event):
        """An order set taken: its lines, the answers read from them (by decision key),
        its conditional lines and each line's verdict."""

        player: str
        step: str | None
        mail_id: str | None
        lines: list[str]
        answers: dict[str, Any]
        conditional: list[PolicyRecord]
        verdicts: list[dict]

        # 2: conditional lines are `PolicyRecord`s (version 1 stored them as plain objects).
        class_version = 2

        @staticmethod
        def upcast_v1_v2(state: dict) -> None:
            state["conditional"] = [msgspec.convert(line, PolicyRecord) for line in state["conditional"]]

    @event(OrdersSubmitted)
    def submit_orders(self, player: str, step: str | None, mail_id: str | None, lines: list[str],
                      answers: dict[str, Any], conditional: list[PolicyRecord], verdicts: list[dict]) -> None:
        pass

    class OrdersRejected(Aggregate.Event):
        player: str
        step: str | None
        mail_id: str | None
        reason: str
        verdicts: list[dict]

    @event(OrdersRejected)
    def reject_orders(self, player: str, step: str | None, mail_id: str | None, reason: str,
                      verdicts: list[dict]) -> None:
        pass

    class PolicySet(Aggregate.Event):
        player: str
        policy_id: str
        kind: str
        power: str | None
        conditions: list[list[str]]
        answer_text: str
        text: str

    @event(PolicySet)
    def set_policy(self, player: str, policy_id: str, kind: str, power: str | None,
                   conditions: list[list[str]], answer_text: str, text: str) -> None:
        pass

    class PolicyCleared(Aggregate.Event):
        player: str
        policy_id: str

    @event(PolicyCleared)
    def clear_policy(self, player: str, policy_id: str) -> None:
        pass

    class OrdersQueued(Aggregate.Event):
        """A block of orders queued for a later decision of the player's own (issue 16):
        what it answers, the step it is not for (the one in progress), and its
        alternatives as plain objects (`queues.Alternative`)."""

        player: str
        queue_id: str
        kind: str
        power: str | None
        turn: int | None
        not_for: str | None
        alternatives: list[dict]
        replaces: bool

    @event(OrdersQueued)
    def queue_orders(self, player: str, queue_id: str, kind: str, power: str | None, turn: int | None,
                     not_for: str | None, alternatives: list[dict], replaces: bool) -> None:
        pass

    class QueueCleared(Aggregate.Event):
        player: str
        queue_id: str  # or "ALL"

    @event(QueueCleared)
    def clear_queue(self, player: str, queue_id: str) -> None:
        pass

    class QueuedOrdersUsed(Aggregate.Event):
        """A queued block answered a step as it opened: the alternative whose conditions
        held, and what was read from it then, as an order set's are."""

        player: str
        queue_id: str
        step: str
        alternative: int
        lines: list[str]
        answers: dict[str, Any]
        conditional: list[PolicyRecord]
        verdicts: list[dict]

    @event(QueuedOrdersUsed)
    def use_queued(self, player: str, queue_id: str, step: str, alternative: int, lines: list[str],
                   answers: dict[str, Any], conditional: list[PolicyRecord], verdicts: list[dict]) -> None:
        pass

    class QueuedOrdersDropped(Aggregate.Event):
        """A queued block came to its step and was not used: no alternative's conditions
        held, or its orders could not be used then (`verdicts` say why, line by line)."""

        player: str
        queue_id: str
        step: str
        reason: str
        verdicts: list[dict]

    @event(QueuedOrdersDropped)
    def drop_queued(self, player: str, queue_id: str, step: str, reason: str, verdicts: list[dict]) -> None:
        pass

    class PressRelayed(Aggregate.Event):
        player: str
        to: str
        text: str
        mail_id: str | None

    @event(PressRelayed)
    def relay_press(self, player: str, to: str, text: str, mail_id: str | None) -> None:
        pass

    class DecisionAnswered(Aggregate.Event):
        key: str
        value: Any
        source: str

    @event(DecisionAnswered)
    def answer(self, key: str, value: Any, source: str) -> None:
        pass

    class StepOpened(Aggregate.Event):
        """A step started waiting for people: for whom and which decisions, when, and by
        when its answers are due. `players` and `requests` are None in a log written
        before pbem recorded them: the step itself tells them on replay."""

        step: str
        kind: str
        opened: str
        deadline: str
        earliest: str
        players: list[str] | None
        requests: list[str] | None

        # 2: whom and which decisions the step waits for (version 1 did not say).
        class_version = 2

        @staticmethod
        def upcast_v1_v2(state: dict) -> None:
            state["players"] = state["requests"] = None

    @event(StepOpened)
    def open_step(self, step: str, kind: str, opened: str, deadline: str, earliest: str,
                  players: list[str], requests: list[str]) -> None:
        pass

    class StepAsked(Aggregate.Event):
        """A step already waiting asked more: a decision that follows from another's
        answer (an interception after a move, a retreat after a battle)."""

        step: str
        players: list[str]
        requests: list[str]

    @event(StepAsked)
    def ask(self, step: str, players: list[str], requests: list[str]) -> None:
        pass

    class DeadlineChanged(Aggregate.Event):
        step: str
        at: str
        reason: str
        by: str

    @event(DeadlineChanged)
    def change_deadline(self, step: str, at: str, reason: str, by: str) -> None:
        pass

    class DeadlinePassed(Aggregate.Event):
        step: str
        at: str
        by: str

    @event(DeadlinePassed)
    def pass_deadline(self, step: str, at: str, by: str) -> None:
        pass

    class GraceExpired(Aggregate.Event):
        step: str
        at: str

    @event(GraceExpired)
    def expire_grace(self, step: str, at: str) -> None:
        pass

    class ReminderSent(Aggregate.Event):
        step: str
        hours_before: int
        players: list[str]

    @event(ReminderSent)
    def remind(self, step: str, hours_before: int, players: list[str]) -> None:
        pass

    class MissRecorded(Aggregate.Event):
        """A player owed answers when a deadline passed; `action` is what the campaign's
        missed-orders policy did: default, excused, civil-disorder, dropped."""

        player: str
        step: str
        action: str

    @event(MissRecorded)
    def record_miss(self, player: str, step: str, action: str) -> None:
        pass

    class PlayerReturned(Aggregate.Event):
        """A player in civil disorder or dropped has written again: their own answers count again."""

        player: str

    @event(PlayerReturned)
    def return_player(self, player: str) -> None:
        pass

    class PlayerReady(Aggregate.Event):
        player: str
        step: str

    @event(PlayerReady)
    def set_ready(self, player: str, step: str) -> None:
        pass

    class AbsenceDeclared(Aggregate.Event):
        player: str
        start: str
        end: str

    @event(AbsenceDeclared)
    def declare_absence(self, player: str, start: str, end: str) -> None:
        pass

    class Paused(Aggregate.Event):
        reason: str
        at: str

    @event(Paused)
    def pause(self, reason: str, at: str) -> None:
        pass

    class Resumed(Aggregate.Event):
        reason: str
        at: str

    @event(Resumed)
    def resume(self, reason: str, at: str) -> None:
        pass

    class PlayerReplaced(Aggregate.Event):
        player: str
        name: str
        address: str
        token_hash: str
        reason: str

    @event(PlayerReplaced)
    def replace_player(self, player: str, name: str, address: str, token_hash: str, reason: str) -> None:
        self.players[player] = msgspec.structs.replace(self.players[player], name=name, address=address,
                                                       token_hash=token_hash)

    class RerunStarted(Aggregate.Event):
        from_step: str
        reason: str
        engine_version: str

    @event(RerunStarted)
    def start_rerun(self, from_step: str, reason: str, engine_version: str) -> None:
        pass

    class DiceForced(Aggregate.Event):
        purpose: str
        values: list[int]
        reason: str

    @event(DiceForced)
    def force_dice(self, purpose: str, values: list[int], reason: str) -> None:
        pass

    class GMRuling(Aggregate.Event):
        kind: str
        args: dict[str, Any]  # the ruling's own arguments (`Ruleset.apply_ruling`)
        reason: str

    @event(GMRuling)
    def rule(self, kind: str, args: dict[str, Any], reason: str) -> None:
        pass

    class StateSet(Aggregate.Event):
        edits: list[dict[str, Any]]  # each a `StateEdit` as a dict: path, operation, JSON value
        reason: str

    @event(StateSet)
    def set_state(self, edits: list[dict[str, Any]], reason: str) -> None:
        """Fields of the state set by path (a case's set-up): a person's statement of the
        position, like a ruling, applied through the ruleset's own encoding."""

    class RolledBack(Aggregate.Event):
        to_version: int
        reason: str

    @event(RolledBack)
    def roll_back(self, to_version: int, reason: str) -> None:
        pass

    class SeedRevealed(Aggregate.Event):
        secret: str

    @event(SeedRevealed)
    def reveal_seed(self, secret: str) -> None:
        pass

    class StepResolved(Aggregate.Event):
        step: str
        engine_version: str
        state_hash: str

    @event(StepResolved)
    def resolve_step(self, step: str, engine_version: str, state_hash: str) -> None:
        pass


class DiceVault(Aggregate):
    """The dice secret of one campaign (hex)."""

    @staticmethod
    def create_id(campaign: str, **_: Any) -> UUID:
        return uuid5(NAMESPACE_URL, f"pbem:vault:{campaign}")

    class Created(Aggregate.Created):
        campaign: str
        secret: str

    @event(Created)
    def __init__(self, campaign: str, secret: str):
        self.secret = secret


class InboundMail(Aggregate):
    """One received mail, kept whole (compressed) with what it was taken to be."""

    @staticmethod
    def create_id(message_id: str, digest: str, **_: Any) -> UUID:
        return uuid5(NAMESPACE_URL, f"pbem:mail:{message_id}:{digest}")

    class Received(Aggregate.Created):
        message_id: str
        digest: str
        sender: str
        source_key: str | None
        raw: str
        campaign: str | None
        campaign_versions: list[int]
        outcome: str

    @event(Received)
    def __init__(self, message_id: str, digest: str, sender: str, source_key: str | None, raw: str,
                 campaign: str | None, campaign_versions: list[int], outcome: str):
        self.campaign = campaign
        self.campaign_versions = campaign_versions
        self.outcome = outcome
        self.source_key = source_key

