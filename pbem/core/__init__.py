"""Game-agnostic core: campaign facts, projector, decision engine, dice, orders, rulesets."""
