"""The Ratio Regis combat engine (§13 of the rulebook), a pure engine over its own types.

Build a `model.Combat` from the game state, run it inside a step, apply the
`model.CombatResult` back:

    from pbem.rules.ratio_regis.combat import Combat, Side, Unit, fight
    result = fight(ctx, Combat(id="c1", type="field", area="rouen", attacker=..., defender=...))

- `fight(ctx, combat)` (procedure.py) runs any type: `naval`, `field`, `siege`,
  `subjugation`, `piracy`, `support`. The type's own rules are in the module of that
  name; `support.contest(ctx, coastal, supporters, sea=...)` decides naval support of a
  coastal combat first (§11.4.2) and `support.with_support` puts it into the combat.
- Dice come from `ctx.roll("combat")` (one per committed unit, active side first, in
  commit order) and `ctx.roll("combat-reroll")`; nothing else is random.
- Decisions are `ctx.decide` requests with purpose `<combat id>/<kind>`, so keys read
  `<step>/<combat id>/<kind>#<n>`. Kinds and their one-line descriptions:
  `answers.COMBAT_DECISION_KINDS`; `answers.COMBAT_KINDS` declares them to the core (the
  ruleset lists them in its `decision_kinds`). Each
  request's `context` holds the facts a policy may test (`combat`, `type`, `area`,
  `side`, `enemy`, `battlefield`, `own_units`, `enemy_units`, `own_dice`,
  `enemy_dice`, plus what the kind needs to check an answer).
- Answers: `answers.parse_answer(kind, line)` reads a line (or raises
  `answers.AnswerError`, a `ValueError`); `answers.check_answer(request, value)` checks
  it against the request; the kind's `order_form(request)` is the default's line. A
  policy's answer text reads the same way; `<KEYWORD> AUTO` means the default.
- Options: `options.COMBAT_OPTIONS` (same shape as the ruleset's `OPTIONS`); a combat
  reads them from `Combat.options`.
- Interpretations RR-C1… are in docs/rules/ratio-regis-combat.md.
"""

from pbem.rules.ratio_regis.combat.model import (Combat, CombatCard, CombatResult, DieRoll, Leader, Modifier, Side,
                                                 SideResult, Unit)
from pbem.rules.ratio_regis.combat.procedure import fight

__all__ = ["Combat", "CombatCard", "CombatResult", "DieRoll", "Leader", "Modifier", "Side", "SideResult", "Unit",
           "fight"]
