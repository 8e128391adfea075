"""Europa Universalis: The Price of Power (Aegir Games) — its data so far: the named
interpretations of the rulebook's lost icons and missing page (`interpretations`), the
effect language of its cards (`effects`), the schemas of its map, Player Mat, realms and
cards, and the scenario check (`scenario`). No ruleset is registered yet: one that cannot
adjudicate would mislead a GM; the `EuPriceOfPower` class comes with the rules.
"""
