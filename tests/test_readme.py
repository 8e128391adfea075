"""README's "Five minutes with a campaign", followed as written: its first shell block run
by bash in an empty folder with the installed `pbem` command (the checkout's here, the
wheel's in tests/test_wheel.py), every command of it having to work."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def walkthrough() -> str:
    """The first ```sh block of the README's "Five minutes with a campaign"."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Five minutes with a campaign", 1)[1]
    return re.search(r"```sh\n(.*?)```", section, re.S)[1]


def walk_through(bin_dir: Path, folder: Path) -> str:
    """Run the walkthrough in `folder` with `bin_dir`'s pbem first on the PATH; its output."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PBEM_", "PYTHON", "POSTGRES_", "VIRTUAL_ENV")) and k != "PERSISTENCE_MODULE"}
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    script = "set -euo pipefail\n" + walkthrough()
    result = subprocess.run(["bash", "-c", script], cwd=folder, env=env, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, f"the README walkthrough failed:\n{result.stdout}\n{result.stderr}"
    out = result.stdout
    assert "Traceback" not in out + result.stderr and "error:" not in result.stderr, result.stderr
    assert "campaign ratio-demo created" in out and "SIGNON p1 ratio-demo" in out
    assert "refused" not in out.lower(), out  # every example line is taken
    assert "Report for Anne of Paris (p1)" in out  # the report of FRA's holder
    assert "[t6/impulse-1]" in out and "PLAY 5 POINTS FRA=2" in out  # the replay explains France's impulse
    assert re.search(r"ratio-demo: \d+ steps verified, state hash [0-9a-f]{64}\n", out), out
    assert re.search(r"\d+ mails read, \d+ mails sent", out)
    assert (folder / "pbem-home" / "campaigns.sqlite").is_file()
    return out


def test_the_readme_walkthrough_runs_as_written_in_an_empty_folder(tmp_path):
    walk_through(Path(sys.executable).parent, tmp_path)
