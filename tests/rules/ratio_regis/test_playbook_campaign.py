"""The playbook's running example game (§26–§32) as an example campaign
(`examples/ratio-regis/playbook/`), played mail by mail on the synthetic war scenario, with
the GM forcing the dice the book names (`GM DICE`), to the end of the book's turn. Each test
asserts the outcome of one worked example the campaign reaches.

Impulse 4 plays the book's REBELLION IN SCOTLAND (§30.2) and impulse 5 its REBELLION IN
FLANDERS (§31.1–§31.2), whose events two generic cards of `war.toml` carry; England joining a
war stands in as a declaration (§28.2, §31.2). Not followed (each mail says why): the other
card events and the technology auction (§27.2–§27.3, §28.2, §28.8, §31.6's CASUS BELLI),
alliances, expeditionary corps and combined fleets (§28.1, §28.16, §31.6: the `alliances-*`
cases), the mini-maps (§28.9–§28.14, §29.1: the cases `subjugation-28-12` and
`subjugation-29-1`), minor powers (§29.2–§29.4, the `minors-*` cases; Scotland's army of
§31.3 is an English one here), the battle for Rouen of §30.3–§30.4 (the case
`naval-prelude-30-4`) and so the regroup of §31.4. France therefore keeps two of its four
morale counters after §31.9 and opens the §31.10 negotiations with the Huguenots voluntarily
(§21.4.1) rather than forced: 3–0 where the book has 4–0 (the case `peace-31-10-31-11` is the
book's count). §32.1's siege of Zeeland (`siege-32-1`) and §32.10's collapse of Hungary
(`peace-32-10-collapse`) have no place in this position; §32.8's Spain is not agitated here
(`agitation-disperse-32-8`), France is, and changes its dynasty as in §32.9. The campaign ends
with France redeployed at turn 7's start, p2 owing turn 7's choice of the first impulse."""

from __future__ import annotations

import pytest
from campaigns import play



@pytest.fixture(scope="module")
def played():
    return play("playbook")


@pytest.fixture(scope="module")
def lines(played) -> list[str]:
    return played.replayed_chronicle()


@pytest.fixture(scope="module")
def view() -> dict:
    """The position after §31.9 (mail 039), where the §26–§31.9 examples are asserted."""
    return play("playbook", upto=39).projection().view("gm")


@pytest.fixture(scope="module")
def end_view(played) -> dict:
    """The position at the end of the book's turn (turn 6), turn 7 dealt."""
    return played.projection().view("gm")


@pytest.fixture(scope="module")
def turn_end(played) -> list[str]:
    """The chronicle of turn 6's end (§8.3, §23), in order."""
    projection = played.service.loader.load(played.name, use_snapshots=False)
    step = next(r for r in projection.resolved if r.step == "t6/end")
    return [c.text for c in step.result.chronicle]


@pytest.fixture(scope="module")
def impulse_5(played) -> list:
    """The decisions answered in p3's impulse 5 (§31), in the order they were asked."""
    projection = played.service.loader.load(played.name, use_snapshots=False)
    step = next(r for r in projection.resolved if r.step == "t6/impulse-5")
    return [(used.request, used.answer.value) for used in step.result.used]


def asked(decisions: list, kind: str, area: str | None = None) -> list:
    return [(request, answer) for request, answer in decisions
            if request.kind == kind and (area is None or request.context.get("area") == area)]


def test_every_mail_is_taken_and_replay_agrees(played):
    assert played.refused == []
    assert played.service.loader.load(played.name, use_snapshots=False).divergences == []
    assert played.projection().step == "t7/half-turn"




def test_the_books_turn_ends(end_view):
    # Every war is over, the forced peaces end with the turn, and turn 7 is dealt.
    assert end_view["turn"] == 7 and end_view["wars"] == []
