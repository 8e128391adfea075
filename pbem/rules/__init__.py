"""Game rulesets, one package per game, found through the `pbem.rulesets` entry points."""
