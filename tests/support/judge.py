"""A step context for unit tests of one Ratio Regis procedure (a fake, by design): it records
what is said and what is asked, and answers each decision from `answers` (by the subject in the
request's context) or else by the request's default."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any


class Judge:
    def __init__(self, scenario: Any = None, **answers: str):
        self.scenario = scenario
        self.answers = answers
        self.said: list[str] = []
        self.asked: list[SimpleNamespace] = []

    def say(self, text, **_):
        self.said.append(text)

    def request(self, **fields):
        return SimpleNamespace(key=f"{fields.get('purpose', 'decision')}#{len(self.asked) + 1}", **fields)

    def decide_all(self, requests):
        self.asked += requests
        return [self.answers.get(getattr(r, "context", {}).get("subject", ""), r.default) for r in requests]

    def decide(self, request):
        return self.decide_all([request])[0]
