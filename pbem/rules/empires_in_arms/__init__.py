"""Empires in Arms (Avalon Hill 1986): the scenario game of §1.3 — monthly land campaigns
with hidden corps strengths, forage and depot supply (docs/rules/empires-in-arms.md)."""

from pbem.rules.empires_in_arms.ruleset import EmpiresInArms

__all__ = ["EmpiresInArms"]
