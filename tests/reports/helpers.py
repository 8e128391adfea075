"""Shared test helpers: golden files, a headless browser, and the leak oracle."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

GOLDEN = Path(__file__).parent / "golden"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def assert_golden(group: str, name: str, actual: str) -> None:
    """Compare with `golden/<group>/<name>`; `PBEM_UPDATE_GOLDEN=1` rewrites it instead."""
    path = GOLDEN / group / re.sub(r"[^\w.-]+", "_", name)
    if os.environ.get("PBEM_UPDATE_GOLDEN") == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(actual, encoding="utf-8")
        return
    assert path.exists(), f"no golden file {path}; run with PBEM_UPDATE_GOLDEN=1 to create it"
    expected = path.read_text(encoding="utf-8")
    assert actual == expected, f"{path.name} differs from its golden file (PBEM_UPDATE_GOLDEN=1 to accept)"


def browser_measure(html: str, screenshot: Path | None = None) -> dict:
    """Open `html` in headless chromium at 800 px; return the page's scroll width and
    every image or SVG that failed to render."""
    probe = ("<script>window.addEventListener('load', () => { const out = {"
             "scrollWidth: document.documentElement.scrollWidth,"
             "broken: Array.from(document.images).filter(i => !i.complete || i.naturalWidth === 0).map(i => i.src),"
             "svgs: Array.from(document.querySelectorAll('svg')).map(s => s.getBoundingClientRect().width)};"
             "const p = document.createElement('pre'); p.id = 'probe'; p.textContent = JSON.stringify(out);"
             "document.body.appendChild(p); });</script>")
    with tempfile.TemporaryDirectory() as tmp:
        page = Path(tmp) / "report.html"
        page.write_text(html.replace("</body>", probe + "</body>"), encoding="utf-8")
        base = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                f"--user-data-dir={tmp}/profile", "--window-size=800,2000", "--virtual-time-budget=2000"]
        dom = subprocess.run(base + ["--dump-dom", page.as_uri()], capture_output=True, text=True, timeout=120,
                             check=True).stdout
        if screenshot is not None:
            clean = Path(tmp) / "clean.html"
            clean.write_text(html, encoding="utf-8")
            subprocess.run(base + [f"--screenshot={screenshot}", clean.as_uri()], capture_output=True, timeout=120,
                           check=True)
    found = re.search(r'<pre id="probe">(.*?)</pre>', dom, re.S)
    assert found, "the probe did not run in the browser"
    return json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&"))


def _strings(view: dict) -> set[str]:
    out = set()
    for section in view.get("sections") or []:
        out.add(str(section.get("title", "")))
        for row in section.get("rows") or []:
            out.update(str(c) for c in row)
    return {s for s in out if len(s) >= 4 and not s.replace(".", "").isdigit()}


def hidden_from(projection, viewer: str) -> set[str]:
    """Strings other viewers are shown (their sections and private chronicle lines)
    that nothing the ruleset gives `viewer` (nor the viewer's own policies) contains:
    what a report for `viewer` must never print."""
    me = "public" if viewer == "public" else viewer
    known_texts = [c.text for c in projection.chronicle(me, 0)]
    known_texts += [p.text for p in projection.data.policies if p.player == viewer]  # what they wrote
    known_view = projection.view(me)
    known = _strings(known_view) | set(known_texts)
    secret: set[str] = set()
    for other in projection.data.players:
        if other == viewer or projection.data.players[other].role != "player":
            continue
        secret |= _strings(projection.view(other))
        secret |= {c.text for c in projection.chronicle(other, 0) if "*" not in c.visible_to}
    return {s for s in secret if not any(s in k for k in known)}
