"""HELP and LIST by mail (DESIGN §6): what a player may ask without knowing the grammar.

LIST answers the campaigns the sender's address plays in; HELP the lines that answer what
the player owes — each owed decision's kind and its description, which the rules that ask
it declare (`pbem.core.decisions`) — and the envelope's own lines. Asked inside a SIGNON
block, the receipt answers; asked alone, a short note does (the address is enough: the
answer goes to that address only).
"""

from __future__ import annotations

from collections.abc import Iterable

from pbem.core.decisions import kinds_of
from pbem.core.orders import ENVELOPE_HELP
from pbem.core.projection import CampaignProjection


def owed_help(projection: CampaignProjection, player: str) -> list[str]:
    """One line per kind of decision `player` owes: the kind, how a line answers it, and the
    lines that would answer the first such request with its default."""
    kinds = kinds_of(projection.ruleset)
    owed = {}
    for request in projection.pending_for(player):
        owed.setdefault(request.kind, request)
    if not owed:
        return [f"{projection.data.campaign}: you owe nothing now"]
    return [f"{projection.data.campaign}, {kind}: "
            + (kinds.kinds[kind].description if kind in kinds.kinds else kind)
            + f"; by default: {' / '.join(kinds.order_form(request).splitlines())}"
            for kind, request in owed.items()]


def players_of(projection: CampaignProjection, address: str) -> list[str]:
    """The players of the campaign whose registered address is `address`."""
    return [p.id for p in projection.data.players.values() if p.address == address.lower()]


def campaign_line(projection: CampaignProjection, player: str) -> str:
    """The campaign as LIST tells it to one of its players."""
    data = projection.data
    where = "finished" if projection.finished else f"at {projection.step}"
    owed = [r.prompt for r in projection.pending_for(player)]
    return (f"{data.campaign} ({data.ruleset}): you are {player}; {where}; "
            + (f"you owe: {'; '.join(owed)}" if owed else "you owe nothing now"))


def help_note(mine: list[tuple[CampaignProjection, str]], asks: Iterable[str]) -> str:
    """The answer to a mail of HELP and LIST lines without SIGNON, to an address that holds
    the seats `mine` (a campaign and a player of it)."""
    lines = ["This mail has no SIGNON line, so nothing in it was read as orders.", "", "Your campaigns:"]
    lines += [f"- {campaign_line(p, player)}" for p, player in mine]
    if "HELP" in asks:
        lines += ["", "What you owe is answered by these lines:"]
        lines += [f"- {line}" for p, player in mine for line in owed_help(p, player)] or ["- nothing is owed"]
        lines += ["", "Every order mail:"] + [f"- {line}" for line in ENVELOPE_HELP]
    return "\n".join(lines)
