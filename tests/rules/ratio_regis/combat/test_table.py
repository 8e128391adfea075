"""The dice and the combat table (§13.1.1, §13.1.6), checked over every face, and a
small battle enumerated over every combination of faces against the side notes."""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import pytest
from combat_kit import run, side, troops

from pbem.rules.ratio_regis.combat import Combat
from pbem.rules.ratio_regis.combat.table import FACES, clamp_category, modified, odds, score


@pytest.mark.parametrize("category, faces", [(4, [4, 4, 4, 4, 5, 6]), (3, [3, 3, 3, 4, 5, 6]),
                                             (2, [2, 2, 3, 4, 5, 6]), (1, [1, 1, 2, 3, 4, 5])])
def test_categories_over_every_face(category, faces):
    assert [modified(category, f) for f in FACES] == faces


@pytest.mark.parametrize("category, p0, p1, p2, expected, casualty", [
    (1, F(3, 6), F(2, 6), F(1, 6), F(2, 3), F(1, 6)),
    (2, F(2, 6), F(2, 6), F(2, 6), F(1), F(2, 6)),
    (3, F(0), F(4, 6), F(2, 6), F(4, 3), F(2, 6)),
    (4, F(0), F(4, 6), F(2, 6), F(4, 3), F(5, 6)),
])
def test_research_4_1_odds(category, p0, p1, p2, expected, casualty):
    o = odds(category)
    assert (o.points[0], o.points[1], o.points[2]) == (p0, p1, p2)
    assert o.expected_points == expected and o.casualty == casualty


def test_table_lines():
    assert [(score(v).battle_points, score(v).casualty) for v in FACES] == [
        (0, False), (0, False), (1, False), (1, True), (2, False), (2, True)]


def test_categories_are_clamped():
    assert [clamp_category(c) for c in (-1, 0, 1, 4, 5)] == [1, 1, 1, 4, 4]


def test_every_face_combination_of_a_naval_two_against_one():
    """Naval, battlefield 2: S3+S2 against S4. For all 216 face combinations the result
    follows the side notes of §13.1.6–§13.1.7 computed here independently."""
    combat = Combat(id="n", type="naval", area="EA", attacker=side("A", troops("A3:3", "A2:2", kind="squadron")),
                    defender=side("B", troops("B4:4", kind="squadron")))
    for faces in itertools.product(FACES, repeat=3):
        r = run(combat, {"combat": list(faces)}).result
        a = [score(modified(3, faces[0])), score(modified(2, faces[1]))]
        b = [score(modified(4, faces[2]))]
        abp, bbp = sum(s.battle_points for s in a), sum(s.battle_points for s in b)
        ac, bc = sum(s.casualty for s in a), sum(s.casualty for s in b)
        winner = None if abp == bbp else ("attacker" if abp > bbp else "defender")
        assert r.winner == winner
        d_against_b = (abp - bbp if winner == "attacker" else 0) + ac % 2
        d_against_a = (bbp - abp if winner == "defender" else 0) + bc % 2
        assert (r.defender.disband_results, r.attacker.disband_results) == (d_against_b, d_against_a)
        # B has one squadron: it goes only if B loses (the winner keeps its last unit).
        b_elim = ac // 2 >= 1 and winner != "defender"
        assert r.defender.eliminated == (("B4",) if b_elim else ())
        assert r.defender.damaged == (("B4",) if not b_elim and d_against_b >= 2 and winner != "defender" else ())
        # A never suffers eliminations (B has at most 1 C); 2 D damage one squadron.
        assert r.attacker.eliminated == ()
        assert len(r.attacker.damaged) == (1 if d_against_a >= 2 else 0)
        # Morale: only A can lose with two dice.
        assert r.morale_to == ("defender" if winner == "defender" else None)
