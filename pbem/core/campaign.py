"""The facts of a campaign (DESIGN §3): every event is an input — something received or
decided by a person or a clock — never something the rules computed. The only
derivation recorded is a check: `StepResolved` carries the state hash.

Three aggregates live in one store:
- `Campaign`: the campaign's log.
- `DiceVault`: the campaign's dice secret, kept apart so the campaign log can be handed
  to players without it (its sha256 is in `Campaign.Created`).
- `InboundMail`: one per received mail (id from Message-ID and digest), saved in the same
  transaction as the campaign facts it caused; a second copy of the mail fails to save.
"""

from __future__ import annotations

from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.domain import Aggregate, event


def campaign_id(name: str) -> UUID:
    return uuid5(NAMESPACE_URL, f"pbem:campaign:{name}")


class Campaign(Aggregate):
    """A campaign's log. Its own state holds only what commands must check."""

    @staticmethod
    def create_id(name: str, **_: Any) -> UUID:
        return campaign_id(name)

    @event("Created")
    def __init__(self, name: str, ruleset: str, ruleset_version: str, scenario: dict, scenario_digest: str,
                 options: dict, dice_commitment: str, settings: dict):
        self.name = name
        self.ruleset = ruleset
        self.players: dict[str, dict] = {}

    @event("PlayerJoined")
    def join(self, player: str, name: str, address: str, token_hash: str, timezone: str, role: str) -> None:
        self.players[player] = {"name": name, "address": address, "token_hash": token_hash,
                                "timezone": timezone, "role": role}

    @event("TokenRotated")
    def rotate_token(self, player: str, token_hash: str, reason: str) -> None:
        self.players[player]["token_hash"] = token_hash

    @event("OrdersSubmitted")
    def submit_orders(self, player: str, step: str | None, mail_id: str | None, lines: list[str],
                      answers: dict, conditional: list[dict], verdicts: list[dict]) -> None:
        pass

    @event("OrdersRejected")
    def reject_orders(self, player: str, step: str | None, mail_id: str | None, reason: str,
                      verdicts: list[dict]) -> None:
        pass

    @event("PolicySet")
    def set_policy(self, player: str, policy_id: str, kind: str, power: str | None, conditions: list,
                   answer_text: str, text: str) -> None:
        pass

    @event("PolicyCleared")
    def clear_policy(self, player: str, policy_id: str) -> None:
        pass

    @event("PressRelayed")
    def relay_press(self, player: str, to: str, text: str, mail_id: str | None) -> None:
        pass

    @event("DecisionAnswered")
    def answer(self, key: str, value: Any, source: str) -> None:
        pass

    @event("StepOpened")
    def open_step(self, step: str, kind: str, opened: str, deadline: str, earliest: str,
                  players: list[str], requests: list[str]) -> None:
        """A step started waiting for people: for whom and which decisions, when, and by
        when its answers are due."""

    @event("StepAsked")
    def ask(self, step: str, players: list[str], requests: list[str]) -> None:
        """A step already waiting asked more: a decision that follows from another's
        answer (an interception after a move, a retreat after a battle)."""

    @event("DeadlineChanged")
    def change_deadline(self, step: str, at: str, reason: str, by: str) -> None:
        pass

    @event("DeadlinePassed")
    def pass_deadline(self, step: str, at: str, by: str) -> None:
        pass

    @event("GraceExpired")
    def expire_grace(self, step: str, at: str) -> None:
        pass

    @event("ReminderSent")
    def remind(self, step: str, hours_before: int, players: list[str]) -> None:
        pass

    @event("MissRecorded")
    def record_miss(self, player: str, step: str, action: str) -> None:
        """A player owed answers when a deadline passed; `action` is what the campaign's
        missed-orders policy did: default, excused, civil-disorder, dropped."""

    @event("PlayerReturned")
    def return_player(self, player: str) -> None:
        """A player in civil disorder or dropped has written again: their own answers count again."""

    @event("PlayerReady")
    def set_ready(self, player: str, step: str) -> None:
        pass

    @event("AbsenceDeclared")
    def declare_absence(self, player: str, start: str, end: str) -> None:
        pass

    @event("Paused")
    def pause(self, reason: str, at: str) -> None:
        pass

    @event("Resumed")
    def resume(self, reason: str, at: str) -> None:
        pass

    @event("PlayerReplaced")
    def replace_player(self, player: str, name: str, address: str, token_hash: str, reason: str) -> None:
        self.players[player].update(name=name, address=address, token_hash=token_hash)

    @event("RerunStarted")
    def start_rerun(self, from_step: str, reason: str, engine_version: str) -> None:
        pass

    @event("DiceForced")
    def force_dice(self, purpose: str, values: list[int], reason: str) -> None:
        pass

    @event("GMRuling")
    def rule(self, kind: str, args: dict, reason: str) -> None:
        pass

    @event("StateSet")
    def set_state(self, edits: list[dict], reason: str) -> None:
        """Fields of the state set by path (a case's set-up): a person's statement of the
        position, like a ruling, applied through the ruleset's own encoding."""

    @event("RolledBack")
    def roll_back(self, to_version: int, reason: str) -> None:
        pass

    @event("SeedRevealed")
    def reveal_seed(self, secret: str) -> None:
        pass

    @event("StepResolved")
    def resolve_step(self, step: str, engine_version: str, state_hash: str) -> None:
        pass


class DiceVault(Aggregate):
    """The dice secret of one campaign (hex)."""

    @staticmethod
    def create_id(campaign: str, **_: Any) -> UUID:
        return uuid5(NAMESPACE_URL, f"pbem:vault:{campaign}")

    @event("Created")
    def __init__(self, campaign: str, secret: str):
        self.secret = secret


class InboundMail(Aggregate):
    """One received mail, kept whole (compressed) with what it was taken to be."""

    @staticmethod
    def create_id(message_id: str, digest: str, **_: Any) -> UUID:
        return uuid5(NAMESPACE_URL, f"pbem:mail:{message_id}:{digest}")

    @event("Received")
    def __init__(self, message_id: str, digest: str, sender: str, source_key: str | None, raw: str,
                 campaign: str | None, campaign_versions: list[int], outcome: str):
        self.campaign = campaign
        self.campaign_versions = campaign_versions
        self.outcome = outcome
