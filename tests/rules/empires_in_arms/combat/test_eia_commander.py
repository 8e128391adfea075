"""Choosing a side's commander (§10.6.1.1): the power with most corps, then seniority, then the
player's preference among equally senior leaders (§10.6.1.1.2, EIA-I181), then EIA-I64."""

from __future__ import annotations

from pbem.rules.empires_in_arms.combat.commander import choose_commander
from pbem.rules.empires_in_arms.combat.models import Leader


def leader(name: str, seniority: str, tactical: int, power: str = "FR") -> Leader:
    return Leader(id=name, power=power, strategic=2, tactical=tactical, tactical_max=4, seniority=seniority)


NEY, SOULT, MURAT = leader("Ney", "B", 3), leader("Soult", "B", 2), leader("Murat", "C", 4)


def test_the_players_preference_decides_among_equally_senior_leaders():
    assert choose_commander([NEY, SOULT], ["FR"]) == NEY  # EIA-I64: the higher tactical rating
    assert choose_commander([NEY, SOULT], ["FR"], ("Soult",)) == SOULT


def test_the_preference_never_passes_over_seniority():
    assert choose_commander([NEY, MURAT], ["FR"], ("Murat",)) == NEY


def test_the_first_named_of_several_preferred_leaders_commands():
    assert choose_commander([NEY, SOULT], ["FR"], ("Soult", "Ney")) == SOULT
    assert choose_commander([NEY, SOULT], ["FR"], ("Lannes", "Ney")) == NEY


def test_the_preference_never_passes_over_the_power_with_most_corps():
    kutuzov = leader("Kutuzov", "B", 1, power="RU")
    assert choose_commander([NEY, kutuzov], ["RU", "RU", "FR"], ("Ney",)) == kutuzov
