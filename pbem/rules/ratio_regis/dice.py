"""Every purpose Ratio Regis rolls for, so a GM's forced dice are checked when set
(`pbem gm dice`); the case corpus fails on a roll of a purpose not declared here."""

from __future__ import annotations

from pbem.core.dice import DicePurpose

DICE_PURPOSES = (
    DicePurpose("auction-tiebreak", 6, "§7.1.1"),
    DicePurpose("deck-generic", None, "§8.1.4"),  # the shuffle picking the generic cards in play
    DicePurpose("deck-shuffle", None, "§8.1.4"),  # the deck's shuffle before the deal
    DicePurpose("combat", 6, "§13.1.6"),
    DicePurpose("combat-reroll", 6, "Surprise Attack (RR-C5), Land Technology (§19.3)"),
    DicePurpose("leader", None, "§17.2"),  # a leader drawn from the pool
)
