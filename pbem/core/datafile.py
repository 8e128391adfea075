"""Reading the data files a GM writes (scenarios, players): TOML or JSON."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any


class DataFileError(Exception):
    """A data file that is missing or cannot be parsed; the message names the place."""


def load_data_file(path: Path | str) -> dict[str, Any]:
    path = Path(path)
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
