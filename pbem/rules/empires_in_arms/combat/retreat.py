"""Retreat after losing a combat (§7.5.2.10.3): the route a force takes, one area, and one
more each time it lands among unbesieged enemies, towards the nearest depot of a nationality
in the force (EIA-I56, research §4.12 item 11) or, with none on the map, its nearest
controlled national capital. The victor's free choice among equally close areas is taken by
area name (EIA-I77)."""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

from pbem.rules.empires_in_arms.combat.models import RetreatMap


def _crossing(area: str, other: str, arrows: set[frozenset[str]]) -> bool:
    return frozenset((area, other)) in arrows


def distances(land: RetreatMap, targets: tuple[str, ...]) -> dict[str, int]:
    """Areas by their distance in land areas to the nearest target, arrows not crossed."""
    arrows = {frozenset(pair) for pair in land.arrows}
    found = {target: 0 for target in targets}
    queue = deque(sorted(targets))
    while queue:
        area = queue.popleft()
        for other in land.neighbours.get(area, ()):
            if other not in found and not _crossing(area, other, arrows):
                found[other] = found[area] + 1
                queue.append(other)
    return found


def retreat_route(land: RetreatMap, start: str, prefer: Sequence[str] = ()) -> tuple[str, ...] | None:
    """The areas the force retreats through, the last one open; None when no route is left
    and the force surrenders (§7.5.2.10.3.6). Never over an arrow (§7.5.2.10.3.4) nor into
    an area twice (§7.5.2.10.3.5); the force moves whole (§7.5.2.10.3.2). Among equally
    close areas the ones in `prefer` come first, in its order: the owner's choice when he
    conducts a withdrawal (§7.5.2.5.2.3, §7.5.2.13.1)."""
    def rank(area: str) -> tuple[int, int, str]:
        return near.get(area, len(land.neighbours) + 1), prefer.index(area) if area in prefer else len(prefer), area

    near = distances(land, land.depots or land.capitals)
    arrows = {frozenset(pair) for pair in land.arrows}
    route: list[str] = []
    here = start
    while True:
        seen = {start, *route}
        choices = [a for a in land.neighbours.get(here, ()) if a not in seen and not _crossing(here, a, arrows)]
        if not choices:
            return None
        here = min(choices, key=rank)
        route.append(here)
        if here not in land.blocked:
            return tuple(route)
