"""Empires in Arms land combat (§7.5): field, limited field, trivial, assault and garrison
attack combats, sieges and relief, as pure procedures over their own models. See README.md."""
