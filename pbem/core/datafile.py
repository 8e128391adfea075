"""Reading the data files a GM writes (scenarios, players): TOML or JSON.

A scenario may name the data file of its game's edition — the fixed data every scenario
of the edition shares (the map, the cards, the leaders) — with `edition = "<file>"`,
relative to itself. The edition file holds an `[edition]` table (its identity: id, title,
…) and those tables; the scenario holds its set-up and repeats none of them. What is read
is the resolved scenario: the edition's tables merged in, and `edition` its identity table
instead of the path (a path on the GM's disk is no game data). So a campaign stores, and
replays from, the whole scenario, whether or not the edition file is still around.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any


class DataFileError(Exception):
    """A data file that is missing or cannot be parsed; the message names the place."""


def load_data_file(path: Path | str) -> dict[str, Any]:
    """The data in `path`; a scenario's edition (`edition = "<file>"`) merged in."""
    path = Path(path)
    data = _read(path)
    edition = data.get("edition")
    if not isinstance(edition, str):
        return data
    return _with_edition(path, data, edition)


#: The fields that name an entry of a list of tables (an area's `id`, a power's `code`).
_ENTRY_KEYS = ("id", "code")


def merged(base: Any, patch: Any) -> Any:
    """`patch` laid over `base`: tables merge key by key, a list of tables named by `id` (or
    `code`) merges entry by entry (a new one is appended), anything else is replaced. A case's
    inline scenario fragment and a scenario's partial chart override are read this way."""
    if isinstance(base, dict) and isinstance(patch, dict):
        return {**base, **{key: merged(base[key], value) if key in base else value for key, value in patch.items()}}
    name = next((k for k in _ENTRY_KEYS if _named_by(base, k) and _named_by(patch, k)), None)
    if name is not None:
        given = {entry[name]: entry for entry in patch}
        kept = [merged(entry, given.pop(entry[name])) if entry[name] in given else entry for entry in base]
        return kept + [entry for entry in patch if entry[name] in given]
    return patch


def _named_by(value: Any, name: str) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(e, dict) and name in e for e in value)


def _with_edition(path: Path, data: dict[str, Any], name: str) -> dict[str, Any]:
    edition_path = path.parent / name
    try:
        tables = _read(edition_path)
    except DataFileError as error:
        raise DataFileError(f"{path}: its edition {name}: {error}") from None
    identity = tables.pop("edition", None)
    if not isinstance(identity, dict):
        raise DataFileError(f"{edition_path}: an edition file starts with an [edition] table (its id, title …); "
                            f"{path} names it as its edition")
    repeated = sorted(set(tables) & set(data))
    if repeated:
        raise DataFileError(f"{path}: {', '.join(repeated)} also in its edition {name}: a scenario takes the "
                            f"edition's tables from it and does not repeat them")
    return {**data, **tables, "edition": identity}


def _read(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DataFileError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as error:
        raise DataFileError(f"{path}: cannot read it ({error})") from None
    try:
        data = json.loads(text) if path.suffix.lower() == ".json" else tomllib.loads(text)
    except json.JSONDecodeError as error:
        raise DataFileError(f"{path}: line {error.lineno}: {error.msg}") from None
    except tomllib.TOMLDecodeError as error:
        raise DataFileError(f"{path}: {error}") from None
    if not isinstance(data, dict):
        raise DataFileError(f"{path}: expected a table of settings at the top")
    return data
