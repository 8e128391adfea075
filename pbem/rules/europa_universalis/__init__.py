"""Europa Universalis (the EU9 rules): the rulebook's data so far — extracted from the seed
text by `extract/` into `data/*.json`, validated by `rulebook.py` — and the schema and checks
of a map (`geography.py`). No ruleset is registered yet: a ruleset that cannot adjudicate
would mislead a GM (docs/rules/europa-universalis.md, "Not adjudicated yet").
"""
