"""Ratio Regis v1.2.4 (seed 000): the sequence of play — power auction, turn start and
deck, half turn and impulses, first actions, turn end. See docs/rules/ratio-regis.md."""

from pbem.rules.ratio_regis.ruleset import RatioRegis

__all__ = ["RatioRegis"]
