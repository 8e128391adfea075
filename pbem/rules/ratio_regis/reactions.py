"""Decisions owed in another player's impulse (research §2.7, §3.5; DESIGN §4).

Every interrupt the movement and combat rules raise is a request to the player who runs
the reacting power, with the legal answers as `options`, a documented default, and
`context` fields a standing policy may test (`POLICY FOR FRA react WHEN area=Tours DO
EVADE TO Paris`). The answer is a canonical reaction line; a policy is read from the
request alone, since `read_policy` sees no state.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pbem.rules.ratio_regis.orders import OrderSyntaxError, Reaction, parse_line

REACTION_KINDS: dict[str, str] = {
    "react": "an enemy army enters your area (§12.4): INTERCEPT FROM <area> [UNITS …] | EVADE TO <area> [UNITS …] | "
             "EVADE DISPERSE [UNITS …] | JOINFORT | STAND",
    "intercept": "an enemy crosses a sea where you have a fleet (§10.2.1, §11.4.1): INTERCEPT WITH <squadron> | PASS",
    "engage": "an enemy fleet attacks yours (§11.3): FIGHT | WITHDRAW",
    "support": "a combat in a coastal area next to your fleet (§11.4.2): SUPPORT WITH <squadron> [FOR <POWER>] | PASS",
    "oppose": "an enemy subjugates your area (§13.5.2): OPPOSE FROM <area> WITH TROOPS|FORTRESS | NOOPPOSE",
    "guard": "a pirate attacks your merchants (§11.4.3): GUARD WITH <squadron> | PASS",
    "retreat": "your army lost a field battle (§13.3.6): RETREAT TO <area> [UNITS …] | RETREAT INTO FORT [UNITS …]",
    "base": "your squadron must go to one of several equally near bases (§11.1.1): BASE <area>",
    "repatriate": "a troop must go home (§14.1): REPATRIATE <troop> TO <area> | REPATRIATE <troop> DISPERSE",
}


def ask(ctx: Any, player: str, power: str, kind: str, *, options: Sequence[str], default: str,
        context: Mapping[str, Any], prompt: str, rule: str, eligible: Sequence[str] = ()) -> Reaction:
    """Ask `player` (for `power`) a reaction; returns the answer as a `Reaction`.
    `eligible` lists the units a `UNITS` subset may name."""
    request = ctx.request(kind=kind, player=player, power=power, purpose=kind, default=default, options=options,
                          prompt=prompt, rule=rule,
                          context={**context, "power": power, "eligible": ",".join(eligible)})
    return parse_line(ctx.decide(request))


def read_reaction(command: Reaction, options: Sequence[str], eligible: str) -> tuple[str | None, str]:
    """The canonical answer a reaction gives to a request with these options, or why not."""
    bare = Reaction(command.word, None, command.place, command.unit, (), command.means)
    wanted = _canonical(bare.text())
    match = next((option for option in options if _canonical(option) == wanted), None)
    if match is None:
        return None, f"{bare.text()} is not possible here (possible: {'; '.join(options)})"
    if command.units:
        allowed = [u for u in eligible.split(",") if u]
        wrong = [u for u in command.units if u not in allowed]
        if wrong:
            return None, f"{', '.join(wrong)} cannot take part (units that may: {', '.join(allowed) or 'none'})"
        return f"{match} UNITS {','.join(command.units)}", ""
    return match, ""


def policy_answer(text: str, options: Sequence[str], eligible: str) -> str | None:
    try:
        command = parse_line(text)
    except OrderSyntaxError:
        return None
    if not isinstance(command, Reaction):
        return None
    answer, _reason = read_reaction(command, options, eligible)
    return answer


def _canonical(text: str) -> str:
    return " ".join(text.upper().split())


def ask_all(ctx: Any, asks: Sequence[tuple[str, str, Mapping[str, Any]]], kind: str, *, rule: str,
            prompt: str) -> list[Reaction]:
    """Ask several powers the same kind of reaction at once (no order among them, e.g.
    §11.4.1, §11.4.2); each `asks` entry is (player, power, {options, default, context});
    the answers are revealed together."""
    requests = [ctx.request(kind=kind, player=player, power=power, purpose=kind, default=spec["default"],
                            options=spec["options"], prompt=f"{power}: {prompt}", rule=rule,
                            context={**spec["context"], "power": power, "eligible": ""})
                for player, power, spec in asks]
    return [parse_line(answer) for answer in ctx.decide_all(requests)] if requests else []
