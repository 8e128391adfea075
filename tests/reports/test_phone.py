"""Every example campaign's reports on a phone (390 px) and a desktop (1200 px), in a real
headless browser: no table cell broken inside a word, nothing wider than the screen.
`PBEM_SCREENSHOTS=DIR` also saves a picture of each at both widths."""

import os
from pathlib import Path

import pytest

from pbem.tools.demo import run_demo
from pbem.tools.examples import EXAMPLES as examples_root
from tests.reports.helpers import CHROMIUM, browser_measure

pytestmark = pytest.mark.skipif(CHROMIUM is None and not os.environ.get("CI"),
                                reason="chromium not installed (apt-get install -y chromium)")

# Every example campaign shipped, so a new one is checked too.
EXAMPLES = sorted((c.parent.parent.name, c.parent.name) for c in examples_root.glob("*/*/campaign.toml"))
SHOTS = Path(os.environ["PBEM_SCREENSHOTS"]) if os.environ.get("PBEM_SCREENSHOTS") else None


@pytest.fixture(scope="module", params=EXAMPLES, ids=["/".join(e) for e in EXAMPLES])
def example_reports(request, tmp_path_factory):
    ruleset, example = request.param
    out = tmp_path_factory.mktemp(example) / "out"
    run_demo(ruleset, out, example)
    pages = sorted((out / "reports").glob("*.html"))
    assert pages
    return ruleset, example, pages


@pytest.mark.parametrize("width", [390, 1200])
def test_example_reports_fit_the_screen_without_broken_words(example_reports, width):
    ruleset, example, pages = example_reports
    for page in pages:
        shot = SHOTS / f"{ruleset}-{example}-{page.stem}-{width}.png" if SHOTS else None
        result = browser_measure(page.read_text(encoding="utf-8"), shot, width=width)
        assert result["innerWidth"] == width, "the browser did not open at the width asked"
        assert result["brokenWords"] == [], f"{example} {page.name}: words broken in table cells"
        assert result["scrollWidth"] <= width, f"{example} {page.name}: wider than the screen"
        assert result["broken"] == []
