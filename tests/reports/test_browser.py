"""The HTML report, map included, in a real headless browser at 800 px."""

import os
from pathlib import Path

import pytest

from pbem.reports.renderer import render_report

from tests.reports.helpers import CHROMIUM, browser_measure

pytestmark = pytest.mark.skipif(CHROMIUM is None and not os.environ.get("CI"),
                                reason="chromium not installed (apt-get install -y chromium)")

SHOTS = Path(os.environ.get("PBEM_SCREENSHOTS", "")) if os.environ.get("PBEM_SCREENSHOTS") else None


@pytest.mark.parametrize("viewer", ["p1", "public", "gm"])
def test_toy_report_fits_800px_without_broken_images(toy_campaign, viewer):
    html = render_report(toy_campaign.service.projection("toy-demo"), viewer, "html", since_version=0)
    shot = SHOTS / f"toy-{viewer}.png" if SHOTS else None
    result = browser_measure(html, shot)
    assert result["broken"] == []
    assert len(result["svgs"]) == 1 and 0 < result["svgs"][0] <= 800
    assert result["scrollWidth"] <= 800
