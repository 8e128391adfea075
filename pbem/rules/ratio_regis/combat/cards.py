"""The combat cards whose effect survives in the rulebook's text (§13.1.4, §28.7,
§32.1; Surprise Attack from the card anatomy of v2.1 §3.2). The card faces are lost
(research §0), so each effect is written as an interpretation (RR-C4 … RR-C7)."""

from __future__ import annotations

from dataclasses import dataclass

BATTLEFIELD, BEFORE_ROLL, AFTER_ROLL = "battlefield", "before-roll", "after-roll"

FLANKING_ATTACK, SURPRISE_ATTACK, AMBUSH, GUARDS = "flanking-attack", "surprise-attack", "ambush", "guards"


@dataclass(frozen=True)
class CardEffect:
    timing: str
    rule: str
    text: str


CARD_EFFECTS: dict[str, CardEffect] = {
    FLANKING_ATTACK: CardEffect(BATTLEFIELD, "§13.1.4, §32.1 (RR-C4)", "+1 to the battlefield size"),
    SURPRISE_ATTACK: CardEffect(BEFORE_ROLL, "v2.1 §3.2 card 012 (RR-C5)", "the opponent re-rolls its 6s once"),
    AMBUSH: CardEffect(AFTER_ROLL, "§28.7 (RR-C6)",
                       "+1 to one own die below 6; if the side then wins it may make one troop veteran"),
    GUARDS: CardEffect(AFTER_ROLL, "§32.1 (RR-C7)",
                       "with a unit of factor 3 or 4 fighting: ignore every disband result against you"),
}
