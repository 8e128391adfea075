"""Structured logs: one `key=value` line per event (or one JSON object with `json=True`).

Callers pass only addresses, keys and counts; mail text and settings never reach a log
line, so tokens and passwords cannot leak through it.
"""

from __future__ import annotations

import json
import logging
import sys


def log_event(logger: logging.Logger, event: str, *, level: int = logging.INFO, **fields: object) -> None:
    logger.log(level, event, extra={"pbem_fields": fields})


class _Formatter(logging.Formatter):
    def __init__(self, as_json: bool) -> None:
        super().__init__()
        self.as_json = as_json

    def format(self, record: logging.LogRecord) -> str:
        fields = {"ts": self.formatTime(record, "%Y-%m-%dT%H:%M:%S"), "level": record.levelname.lower(),
                  "event": record.getMessage(), **getattr(record, "pbem_fields", {})}
        if record.exc_info:
            fields["error"] = self.formatException(record.exc_info).splitlines()[-1]
        if self.as_json:
            return json.dumps(fields, default=str, ensure_ascii=False)
        return " ".join(f"{key}={_quote(value)}" for key, value in fields.items())


def _quote(value: object) -> str:
    text = str(value)
    # A control character is escaped (json), never written: a NUL or CR in a sender's header
    # must not forge or break a log line.
    needs_quotes = not text or any(c in ' "=' or not c.isprintable() for c in text)
    return json.dumps(text, ensure_ascii=False) if needs_quotes else text


def configure_logging(*, as_json: bool = False, level: int = logging.INFO) -> None:
    """Send `pbem.*` logs to stderr in the structured format."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_Formatter(as_json))
    root = logging.getLogger("pbem")
    root.handlers[:] = [handler]
    root.setLevel(level)
    root.propagate = False
