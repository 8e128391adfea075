"""The public record of a campaign (`pbem export C --public`): what any player may hold
and check without the GM's store (DESIGN §5).

Each resolved step's public chronicle lines, and the record of every draw of its dice —
stream key, purpose, rule, sides, whether forced — with the face where it may be told:
a roll told in a public line at once, every roll once the secret is revealed (from then on
anyone can recompute them all). Nothing else of a step is in it: no player's view, no
decision or answer (sealed bids stay sealed), no standing orders, and no state hash either
(a hash of the whole state would let a guess at a hand or a hidden strength be checked).
`pbem/resources/verify_dice.py` checks it with Python's standard library alone.
"""

from __future__ import annotations

from pbem.core.projection import CampaignProjection
from pbem.resources.verify_dice import FORMAT


def public_log(projection: CampaignProjection) -> dict:
    """The public record of `projection`'s resolved steps (load it with its history)."""
    data = projection.data
    revealed = data.revealed_secret
    steps = []
    for resolved in projection.resolved:
        public = [entry for entry in resolved.result.chronicle if entry.visible("public")]
        told = {roll["key"] for entry in public for roll in entry.rolls}
        steps.append({
            "step": resolved.step,
            "log_version": resolved.version,
            "results": [{"text": entry.text, "rule": entry.rule, "rolls": [roll["key"] for roll in entry.rolls]}
                        for entry in public],
            "rolls": [{"key": roll.key, "purpose": roll.purpose, "rule": roll.rule, "sides": roll.sides,
                       "forced": roll.forced, "value": roll.value if revealed or roll.key in told else None}
                      for roll in resolved.result.rolls],
        })
    return {
        "format": FORMAT,
        "campaign": data.campaign,
        "ruleset": data.ruleset,
        "commitment": data.commitment,
        "secret": revealed,
        "steps": steps,
    }
