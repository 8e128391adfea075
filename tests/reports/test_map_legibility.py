"""Every example campaign's maps, as players get them by mail, measured in headless
chromium on a 390-px phone: no two labels overlap and every label is at least 11 px tall
(issue 32). The maps are the SVGs of the HTML reports the demo mailed, moves and battles
included."""

import email
import json
import os
import re
import subprocess
import tempfile
from email import policy
from pathlib import Path

import pytest

from pbem.reports.maps import LEGIBLE_PX
from pbem.tools.demo import run_demo
from pbem.tools.examples import EXAMPLES as EXAMPLES_DIR
from tests.reports.helpers import CHROMIUM

pytestmark = pytest.mark.skipif(CHROMIUM is None and not os.environ.get("CI"),
                                reason="chromium not installed (apt-get install -y chromium)")

# every example campaign pbem ships (each folder's directory of a ruleset's examples)
EXAMPLES = sorted((path.parent.parent.name, path.parent.name) for path in EXAMPLES_DIR.glob("*/*/campaign.toml"))
PHONE = 390

# every label's box on the screen, map by map; the wrapper is the report's own (`scalable`)
PROBE = """<script>window.addEventListener('load', () => {
  const maps = Array.from(document.querySelectorAll('svg')).map(svg => Array.from(svg.querySelectorAll('text.label'))
    .map(t => { const r = t.getBoundingClientRect();
                return {text: t.textContent, left: r.left, top: r.top, right: r.right, bottom: r.bottom,
                        size: parseFloat(t.getAttribute('font-size')) * svg.getBoundingClientRect().width
                              / svg.viewBox.baseVal.width}; }));
  const p = document.createElement('pre'); p.id = 'probe'; p.textContent = JSON.stringify(maps);
  document.body.appendChild(p); });</script>"""


def mailed_maps(out: Path) -> list[str]:
    """The distinct map pictures (the report's map wrapper and SVG) of every mailed report."""
    found: dict[str, None] = {}
    for path in sorted((out / "mail" / "new").iterdir()):
        body = email.message_from_bytes(path.read_bytes(), policy=policy.default).get_body(("html",))
        html = body.get_content() if body else ""
        for svg in re.findall(r'<div class="map-frame".*?</svg>\s*</div>', html, re.S):
            found.setdefault(svg)
    return list(found)


def measure(maps: list[str]) -> list[list[dict]]:
    page = "<html><body style='margin:0'>" + "".join(maps) + PROBE + "</body></html>"
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "maps.html"
        path.write_text(page, encoding="utf-8")
        dom = subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                              f"--user-data-dir={tmp}/profile", f"--window-size={PHONE},2000",
                              "--virtual-time-budget=5000", "--dump-dom", path.as_uri()],
                             capture_output=True, text=True, timeout=300, check=True).stdout
    found = re.search(r'<pre id="probe">(.*?)</pre>', dom, re.S)
    assert found, "the probe did not run in the browser"
    return json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<")
                      .replace("&gt;", ">"))


def overlaps(a: dict, b: dict) -> bool:
    return min(a["right"], b["right"]) - max(a["left"], b["left"]) > 0.5 and \
        min(a["bottom"], b["bottom"]) - max(a["top"], b["top"]) > 0.5


@pytest.mark.parametrize(("ruleset", "example"), EXAMPLES, ids=[f"{r}-{e}" for r, e in EXAMPLES])
def test_example_maps_are_legible_on_a_phone(tmp_path, ruleset, example):
    out = tmp_path / "out"
    run_demo(ruleset, out, example)
    maps = mailed_maps(out)
    assert maps, "the example mailed no map"
    if example == "war-demo" or ruleset == "empires-in-arms":  # the two wars: the turn is on the map
        assert any('class="move"' in m for m in maps) and any(">Battle: " in m for m in maps)
    for labels in measure(maps):
        assert labels
        for label in labels:
            assert label["size"] >= LEGIBLE_PX and label["bottom"] - label["top"] >= LEGIBLE_PX, label
        clashes = [(a["text"], b["text"]) for i, a in enumerate(labels) for b in labels[i + 1:] if overlaps(a, b)]
        assert clashes == []
