"""The dice of EU: The Price of Power as data: the Infantry, Cavalry and Artillery Battle Dice
(§9.7, §9.9), the Rebel Die (§14.2) and the Exploration Die (§5.1).

The rulebook names what the faces show but not how they are laid out (the dice's page is
missing; EUPOP-I12): a battle face may show an Infantry icon (with an outlined second one that
"Tercios/Janissaries" and "Line Infantry" count, §9.7), a Cavalry or an Artillery icon (Ships
hit on it too, §9.9), a wound (a pair wounds the enemy's General or Admiral) and a capture icon
(§9.9 5B); the Rebel Die has six results, one a face (§14.2); the Exploration Die a number and,
on some faces, the cost symbol (§5.1). A GM types in the real faces; the example's battle and
exploration faces are invented.
"""

from __future__ import annotations

from collections import Counter
from typing import Literal

from pydantic import Field

from pbem.rules.eu_price_of_power.sources import Source, Strict

DieKind = Literal["infantry", "cavalry", "artillery", "rebel", "exploration"]
#: What a face may show, by die.
SYMBOLS: dict[str, tuple[str, ...]] = {
    "battle": ("infantry", "outlined_infantry", "cavalry", "artillery", "wound", "capture"),
    # §14.2's six results: "Rebellion, Lose 2 [Ducats], Lose 1 [Monarch Power], No effect,
    # Exhaust 1 [Manpower], Remove 1 [Unrest]".
    "rebel": ("rebellion", "lose_ducats", "lose_monarch_power", "no_effect", "exhaust", "remove_unrest"),
    "exploration": ("cost",),
}
DICE: tuple[str, ...] = ("infantry", "cavalry", "artillery", "rebel", "exploration")


class Face(Strict):
    symbols: list[str] = []  # empty: a blank face
    number: int | None = Field(None, ge=1)  # an Exploration Die's Territory number


class Die(Strict):
    kind: DieKind
    faces: list[Face] = Field(min_length=6, max_length=6)
    source: Source | None = None
    synthetic: bool = False


def _family(kind: str) -> str:
    return kind if kind in ("rebel", "exploration") else "battle"


def check_dice(dice: list[Die]) -> list[str]:
    """Each die once, with faces of its own symbols: a Rebel Die with each of its six results
    once, an Exploration Die's faces each numbered."""
    problems = []
    counts = Counter(die.kind for die in dice)
    problems += [f"dice: give the {kind} die once, not {counts[kind]} times" for kind in DICE if counts[kind] != 1]
    for die in dice:
        allowed = SYMBOLS[_family(die.kind)]
        strange = sorted({s for face in die.faces for s in face.symbols if s not in allowed})
        if strange:
            problems.append(f"{die.kind} die: {', '.join(strange)} is not one of its symbols ({', '.join(allowed)})")
        if die.kind == "rebel" and sorted(s for face in die.faces for s in face.symbols) != sorted(allowed):
            problems.append("rebel die: each of its six results on one face (§14.2)")
        numbered = [face.number is not None for face in die.faces]
        if numbered != [die.kind == "exploration"] * len(numbered):
            problems.append(f"{die.kind} die: the Exploration Die's faces, and only they, carry numbers (§5.1)")
    return problems
