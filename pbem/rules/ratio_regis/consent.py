"""The consent of an allied power (§21.1 "with his acquiescence", §21.2.2 "always with the
acquiescence of both"): asked in another player's impulse (research §2.7)."""

from __future__ import annotations

from pbem.core.port import DecisionPort
from pbem.rules.ratio_regis.reactions import ask
from pbem.rules.ratio_regis.state import GameState


def consent(state: GameState, judge: DecisionPort, proposer: str, power: str, what: str, rule: str) -> bool:
    """Whether `power` accepts what `proposer` proposes: no question when one player runs
    both (§28.1); otherwise a `consent` decision, whose default is REFUSE (RR-I181)."""
    player = state.powers[power].player
    if player is None or player == state.powers[proposer].player:
        return True
    answer = ask(judge, player, power, "consent", options=["ACCEPT", "REFUSE"], default="REFUSE",
                 context={"proposer": proposer, "what": what},
                 prompt=f"{proposer} proposes {what} ({rule}): ACCEPT or REFUSE", rule=rule)
    return answer.word == "ACCEPT"
