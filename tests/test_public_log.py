"""`pbem export C --public` and the dice checked from it alone: the exported log of each
demo campaign tells no player anything private, and the one-file verifier (plain Python,
run as a copied file in isolated mode) passes on it once the secret is revealed and fails,
naming the roll, when one die is changed."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem.cli import Failure, app
from pbem.core.store import ProjectionLoader, open_store
from pbem.resources import verify_dice
from pbem.tools.demo import run_demo

CAMPAIGNS = {"ratio-regis": "ratio-demo", "empires-in-arms": "eia-demo"}


@pytest.fixture(scope="module", params=sorted(CAMPAIGNS))
def demo(request, tmp_path_factory) -> tuple[str, Path]:
    out = tmp_path_factory.mktemp(request.param)
    run_demo(request.param, out)
    return CAMPAIGNS[request.param], out / "home"


def cli(*args: str):
    return CliRunner().invoke(app, list(args))


def export(name: str, home: Path, out: Path) -> dict:
    result = cli("export", name, "--public", "--out", str(out), "--home", str(home))
    assert result.exit_code == 0, result.output
    return json.loads(out.read_text(encoding="utf-8"))


def test_the_public_log_tells_nothing_private(demo, tmp_path):
    name, home = demo
    log = export(name, home, tmp_path / "public.json")
    text = json.dumps(log, ensure_ascii=False)
    store = open_store(home)
    loader = ProjectionLoader(store)
    projection = loader.load(name, use_snapshots=False)
    secret = loader.secret(name).hex()
    store.close()

    assert log["secret"] is None and secret not in text
    assert log["commitment"] == projection.data.commitment
    assert [s["step"] for s in log["steps"]] == [r.step for r in projection.resolved]
    public_lines = {e.text for r in projection.resolved for e in r.result.chronicle if e.visible("public")}
    private = [e for r in projection.resolved for e in r.result.chronicle
               if not e.visible("public") and e.text not in public_lines]
    assert private, "the demo has private lines for this test to look for"
    for entry in private:
        assert json.dumps(entry.text, ensure_ascii=False)[1:-1] not in text
    for step, resolved in zip(log["steps"], projection.resolved):
        assert set(step) == {"step", "log_version", "results", "rolls"}  # no answers, no hash, no view
        told = {key for result in step["results"] for key in result["rolls"]}
        for roll, logged in zip(step["rolls"], resolved.result.rolls):
            assert roll["key"] == logged.key
            assert roll["value"] == (logged.value if roll["key"] in told else None)


@pytest.fixture
def revealed_log(demo, tmp_path) -> Path:
    name, home = demo
    copy = tmp_path / "home"
    shutil.copytree(home, copy)
    assert cli("gm", "reveal", name, "--reason", "campaign over", "--home", str(copy)).exit_code == 0
    path = tmp_path / "public.json"
    log = export(name, copy, path)
    assert log["secret"] is not None and any(s["rolls"] for s in log["steps"])
    return path


def run_verifier(log: Path, tmp_path: Path) -> subprocess.CompletedProcess:
    """The verifier as a player runs it: the one file copied alone, Python isolated from pbem."""
    script = tmp_path / "player" / "verify_dice.py"
    script.parent.mkdir(exist_ok=True)
    shutil.copy(verify_dice.__file__, script)
    return subprocess.run([sys.executable, "-I", str(script), str(log)], capture_output=True, text=True,
                          cwd=script.parent)


def test_the_one_file_verifier_and_pbem_dice_verify_pass_on_the_exported_log(revealed_log, tmp_path):
    result = run_verifier(revealed_log, tmp_path)
    assert result.returncode == 0, result.stderr
    assert "rolls recomputed, all match" in result.stdout
    assert "all match" in cli("dice", "verify", "--log", str(revealed_log)).output


def test_one_die_changed_fails_naming_the_roll(revealed_log, tmp_path):
    log = json.loads(revealed_log.read_text(encoding="utf-8"))
    step = next(s for s in log["steps"] if any(not r["forced"] and r["sides"] > 1 for r in s["rolls"]))
    roll = next(r for r in step["rolls"] if not r["forced"] and r["sides"] > 1)
    roll["value"] = roll["value"] % roll["sides"] + 1
    revealed_log.write_text(json.dumps(log), encoding="utf-8")

    result = run_verifier(revealed_log, tmp_path)
    assert result.returncode == 1
    assert f"roll {roll['key']} in step {step['step']}" in result.stdout
    failed = cli("dice", "verify", "--log", str(revealed_log))
    assert isinstance(failed.exception, Failure) and f"roll {roll['key']}" in str(failed.exception)


def test_a_secret_that_is_not_the_committed_one_fails(revealed_log, tmp_path):
    log = json.loads(revealed_log.read_text(encoding="utf-8"))
    log["secret"] = "00" * 32
    revealed_log.write_text(json.dumps(log), encoding="utf-8")
    result = run_verifier(revealed_log, tmp_path)
    assert result.returncode == 1 and "not the commitment" in result.stdout


def test_before_the_reveal_the_verifier_says_so_and_checks_nothing(demo, tmp_path):
    name, home = demo
    path = tmp_path / "public.json"
    export(name, home, path)
    result = run_verifier(path, tmp_path)
    assert result.returncode == 2 and "not revealed yet" in result.stderr
