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


# Every word of a table cell, as the browser laid it out: a word whose glyphs sit on more
# than one line was broken inside ("Mar/seill/e"); a line may end after a dash or slash.
# Hashes and codes may break anywhere.
_BROKEN_WORDS = """Array.from(document.querySelectorAll('td, th')).flatMap(cell => {
  const out = []; const walk = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
  for (let node = walk.nextNode(); node; node = walk.nextNode()) {
    if (node.parentElement.closest('.hash, code')) continue;
    for (const m of node.textContent.matchAll(/[^\\s\\-–—\\/]+/g)) {
      const range = document.createRange(); range.setStart(node, m.index); range.setEnd(node, m.index + m[0].length);
      const tops = new Set(Array.from(range.getClientRects()).filter(r => r.width > 0).map(r => Math.round(r.top)));
      if (tops.size > 1) out.push(m[0]);
    }
  }
  return out; })"""


def browser_measure(html: str, screenshot: Path | None = None, width: int = 800, shot_height: int = 2400) -> dict:
    """Open `html` in headless chromium `width` px wide; return the viewport's and the
    page's width and height, every image or SVG that failed to render, the SVGs' widths,
    and every table-cell word broken across lines. Headless chromium opens no window
    narrower than 500 px, so the page is shown in a frame of `width` (a phone's screen);
    the screenshot shows its first `shot_height` px."""
    probe = ("<script>window.addEventListener('load', () => { const out = {"
             "innerWidth: window.innerWidth, scrollWidth: document.documentElement.scrollWidth,"
             "height: document.documentElement.scrollHeight,"
             "broken: Array.from(document.images).filter(i => !i.complete || i.naturalWidth === 0).map(i => i.src),"
             f"brokenWords: {_BROKEN_WORDS},"
             "svgs: Array.from(document.querySelectorAll('svg')).map(s => s.getBoundingClientRect().width)};"
             "parent.postMessage(JSON.stringify(out), '*'); });</script>")
    listen = ("<script>window.addEventListener('message', e => { const p = document.createElement('pre');"
              "p.id = 'probe'; p.textContent = e.data; document.body.appendChild(p); });</script>")

    def host(page: Path, height: int, script: str) -> str:
        return (f"<!DOCTYPE html><html><body style='margin:0;background:#888'>{script}"
                f"<iframe src='{page.as_uri()}' style='border:0;display:block;width:{width}px;height:{height}px'>"
                "</iframe></body></html>")

    window = max(width, 500)
    with tempfile.TemporaryDirectory() as tmp:
        page = Path(tmp) / "report.html"
        page.write_text(html.replace("</body>", probe + "</body>"), encoding="utf-8")
        frame = Path(tmp) / "frame.html"
        frame.write_text(host(page, 2000, listen), encoding="utf-8")
        base = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--hide-scrollbars", "--allow-file-access-from-files", f"--user-data-dir={tmp}/profile",
                "--virtual-time-budget=2000"]
        dom = subprocess.run(base + [f"--window-size={window},2000", "--dump-dom", frame.as_uri()],
                             capture_output=True, text=True, timeout=120, check=True).stdout
        if screenshot is not None:
            clean = Path(tmp) / "clean.html"
            clean.write_text(html, encoding="utf-8")
            frame.write_text(host(clean, shot_height, ""), encoding="utf-8")
            subprocess.run(base + [f"--window-size={width},{shot_height}", f"--screenshot={screenshot}",
                                   frame.as_uri()], capture_output=True, timeout=120, check=True)
    found = re.search(r'<pre id="probe">(.*?)</pre>', dom, re.S)
    assert found, "the probe did not run in the browser"
    return json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<")
                      .replace("&gt;", ">"))


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
