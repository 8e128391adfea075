"""The README's demo campaign, as `pbem demo` writes it: every player's final report,
text and HTML, compared with its golden file."""

from pathlib import Path

import pytest

from pbem.tools.demo import run_demo
from tests.reports.helpers import assert_golden


@pytest.fixture(scope="module")
def demo_out(tmp_path_factory):
    out = tmp_path_factory.mktemp("demo") / "out"
    run_demo("ratio-regis", out)
    return out


@pytest.mark.parametrize("player", ["p1", "p2", "p3"])
@pytest.mark.parametrize("suffix", ["txt", "html"])
def test_demo_reports_match_golden(demo_out: Path, player: str, suffix: str):
    actual = (demo_out / "reports" / f"{player}.{suffix}").read_text(encoding="utf-8")
    assert_golden("demo", f"{player}.{suffix}", actual)
