"""The mail bench runs and reports its figures (the figures themselves are not asserted here)."""

from __future__ import annotations

import pytest

from pbem.mail.bench import run_mail_bench

pytestmark = pytest.mark.dovecot


def test_bench_reports_latency_and_throughput(dovecot) -> None:  # type: ignore[no-untyped-def]
    # `dovecot` (the fixture) skips, or fails under CI, when Dovecot is missing; the bench starts its own.
    result = run_mail_bench(20, latency_samples=3)
    assert {"median_s", "p95_s", "mails_per_s"} <= set(result)
    assert result["answered"] == 20 and result["mails_per_s"] > 0
