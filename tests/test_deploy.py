"""pbem as a GM runs it for years: the shipped systemd unit, container definition and
environment file (deploy/) refer to things that exist and work, `pbem health` follows the
daemon's loop, and `pbem verify` stands across an engine upgrade."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest
from eventsourcing.persistence import InfrastructureFactory
from eventsourcing.postgres import PostgresFactory
from typer.testing import CliRunner

from pbem import __version__
from pbem.cli import Failure, app
from pbem.core import projection as projections
from pbem.core import ruleset as rulesets
from pbem.mail.settings import _KEYS, load_settings
from pbem.rules.ratio_regis.ruleset import RatioRegis

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy"
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def pbem_command(argv: list[str]) -> list[str]:
    """A shipped `pbem …` command line, run with this test's pbem."""
    assert Path(argv[0]).name == "pbem", argv
    return [sys.executable, "-m", "pbem", *argv[1:]]


def pbem(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(pbem_command(["pbem", *args]), capture_output=True, text=True, env=env, timeout=120)


# -- the container definition -------------------------------------------------------
def containerfile() -> list[tuple[str, str]]:
    """(instruction, arguments) of deploy/Containerfile, continued lines joined."""
    text = re.sub(r"\\\n\s*", " ", (DEPLOY / "Containerfile").read_text(encoding="utf-8"))
    lines = [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    return [(line.split(None, 1)[0].upper(), line.split(None, 1)[1]) for line in lines]


def instructions(name: str) -> list[str]:
    return [args for instruction, args in containerfile() if instruction == name]


def test_the_image_is_debians_python_image_of_a_python_pbem_supports():
    oldest = tuple(int(n) for n in PYPROJECT["project"]["requires-python"].removeprefix(">=").split("."))
    images = [args.split()[0] for args in instructions("FROM")]
    assert images
    for image in images:
        found = re.fullmatch(r"python:(\d+)\.(\d+)-slim-bookworm", image)
        assert found, f"{image} is not Debian's (bookworm) Python image"
        assert (int(found[1]), int(found[2])) >= oldest


def test_every_file_the_image_copies_is_in_the_build_context():
    copied = [shlex.split(args) for args in instructions("COPY") if not args.startswith("--from")]
    assert copied
    for *sources, _ in copied:
        for source in sources:
            assert (ROOT / source).exists(), f"COPY {source}: not in the repository"
    # and everything the build needs is copied: the folders pyproject.toml maps into the package
    sources = {source for *items, _ in copied for source in items}
    assert set(PYPROJECT["tool"]["setuptools"]["package-dir"].values()) <= sources
    assert {"pyproject.toml", "pbem", PYPROJECT["project"]["readme"]} <= sources


def test_the_image_installs_debian_packages_and_extras_that_exist():
    runs = " ".join(instructions("RUN"))
    packages = re.search(r"apt-get install -y --no-install-recommends ([\w.+\- ]+?) &&", runs)[1].split()
    assert "libcairo2" in packages  # the map pictures
    if shutil.which("apt-cache") is not None:
        for package in packages:
            shown = subprocess.run(["apt-cache", "show", package], capture_output=True, text=True)
            assert shown.returncode == 0 and shown.stdout, f"no Debian package {package}"
    extras = re.search(r"pip install [^\n]*pbem-\*\.whl\)\[([\w,]+)\]", runs)[1].split(",")
    assert set(extras) <= set(PYPROJECT["project"]["optional-dependencies"])


def test_the_image_runs_pbem_as_its_own_user_with_the_home_on_a_volume():
    env = dict(item.split("=", 1) for args in instructions("ENV") for item in shlex.split(args))
    volumes = [v for args in instructions("VOLUME") for v in json.loads(args)]
    useradd = shlex.split(next(args for args in instructions("RUN") if "useradd" in args))
    assert volumes == [env["PBEM_HOME"]]
    assert useradd[useradd.index("--home-dir") + 1] == env["PBEM_HOME"]
    assert instructions("USER") == [useradd[-1]]


def test_the_health_check_follows_the_daemon_of_a_real_home(tmp_path):
    health = json.loads(instructions("HEALTHCHECK")[0].split("CMD", 1)[1])
    daemon = json.loads(instructions("ENTRYPOINT")[0]) + json.loads(instructions("CMD")[0])
    env = {**os.environ, "PBEM_HOME": str(tmp_path / "home"), "PBEM_TICK_SECONDS": "0.2"}
    check = pbem_command(health)

    assert subprocess.run(check, env=env, capture_output=True, timeout=60).returncode == 1  # nothing runs yet
    process = subprocess.Popen(pbem_command(daemon), env=env, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while subprocess.run(check, env=env, capture_output=True, timeout=60).returncode != 0:
            assert process.poll() is None, process.stderr.read()
            assert time.monotonic() < deadline, "the daemon never became healthy"
            time.sleep(0.2)
        stale = subprocess.run([*check, "--max-age", "0"], env=env, capture_output=True, text=True, timeout=60)
        assert stale.returncode == 1 and "last beat" in stale.stderr
    finally:
        process.terminate()
        process.wait(timeout=60)
    assert process.returncode == 0
    assert subprocess.run(check, env=env, capture_output=True, timeout=60).returncode == 1  # stopped


# -- the systemd unit -------------------------------------------------------------------
def unit() -> dict[str, dict[str, str]]:
    sections: dict[str, dict[str, str]] = {}
    current: dict[str, str] = {}
    for line in (DEPLOY / "pbem.service").read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            current = sections.setdefault(line.strip("[]"), {})
        else:
            key, value = line.split("=", 1)
            current[key] = value
    return sections


def test_the_unit_restarts_pbem_run_as_its_own_user_with_secrets_from_a_file_and_a_persistent_home():
    service, unit_section = unit()["Service"], unit()["Unit"]
    assert service["Restart"] == "on-failure"
    assert service["User"] == service["Group"] == "pbem"
    assert service["EnvironmentFile"].startswith("/etc/")
    home = dict([service["Environment"].split("=", 1)])["PBEM_HOME"]
    assert unit_section["RequiresMountsFor"] == service["ReadWritePaths"] == home
    command = shlex.split(service["ExecStart"])
    assert command[1:3] == ["run", "--json-logs"]
    assert pbem(*command[1:], "--help").returncode == 0


@pytest.mark.skipif(shutil.which("systemd-analyze") is None and not os.environ.get("CI"),
                    reason="systemd is not installed (scripts/test.sh installs it; under CI this fails)")
def test_systemd_verifies_the_unit(tmp_path):
    # systemd checks that ExecStart's program exists: the unit's /opt/pbem becomes this test's pbem.
    installed = Path(sys.executable).parent / "pbem"
    text = (DEPLOY / "pbem.service").read_text(encoding="utf-8")
    assert "/opt/pbem/bin/pbem " in text
    (tmp_path / "pbem.service").write_text(text.replace("/opt/pbem/bin/pbem ", f"{installed} "), encoding="utf-8")
    result = subprocess.run(["systemd-analyze", "verify", "--man=no", str(tmp_path / "pbem.service")],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0 and not result.stderr.strip(), result.stderr


# -- the environment file ------------------------------------------------------------------
def test_the_environment_example_names_only_settings_that_are_read_and_they_load(tmp_path):
    known = set(_KEYS.values()) | {InfrastructureFactory.PERSISTENCE_MODULE}
    known |= {getattr(PostgresFactory, name) for name in dir(PostgresFactory) if name.startswith("POSTGRES_")}
    active, commented = {}, {}
    for line in (DEPLOY / "pbem.env.example").read_text(encoding="utf-8").splitlines():
        found = re.fullmatch(r"(#?)([A-Z_]+)=(\S+)", line)
        if found:
            (commented if found[1] else active)[found[2]] = found[3]
        else:
            assert not line or line.startswith("# "), f"not NAME=value: {line!r}"
    assert set(active) | set(commented) <= known
    settings = load_settings(tmp_path, env=active)
    assert settings.imap is not None and settings.smtp is not None and settings.from_address == active["PBEM_FROM"]
    assert commented["PERSISTENCE_MODULE"] == "eventsourcing.postgres"


# -- versions and upgrades -----------------------------------------------------------------
def test_version_names_pbem_every_ruleset_engine_and_eventsourcing():
    lines = pbem("--version").stdout.splitlines()
    ruleset = rulesets.load("ratio-regis")
    assert lines[0] == f"pbem {__version__}"
    assert f"ruleset ratio-regis {ruleset.version} (engine {projections.engine_version(ruleset)})" in lines
    assert lines[-1].startswith("eventsourcing 9.")


@pytest.fixture(scope="module")
def demo_home(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("upgrade") / "out"
    assert pbem("demo", "--out", str(out)).returncode == 0
    return out / "home"


def verify(home: Path):
    return CliRunner().invoke(app, ["verify", "ratio-demo", "--home", str(home)])


def test_after_an_upgrade_verify_names_the_steps_the_older_engine_resolved_and_their_hashes_stand(
        demo_home, monkeypatch):
    before = projections.engine_version(rulesets.load("ratio-regis"))
    steps = json.loads(pbem("status", "ratio-demo", "--json", "--home", str(demo_home)).stdout)["steps_resolved"]
    monkeypatch.setattr(RatioRegis, "version", "99.0.0")  # pbem upgraded over the home
    result = verify(demo_home)
    assert result.exit_code == 0, result.output
    after = projections.engine_version(rulesets.load("ratio-regis"))
    assert f"{steps} of them resolved by {before}: replayed by {after}, their recorded hashes stand" in result.output


def test_a_step_the_new_engine_resolves_differently_fails_verify_naming_both_engines(demo_home, monkeypatch):
    before = projections.engine_version(rulesets.load("ratio-regis"))
    monkeypatch.setattr(RatioRegis, "version", "99.0.0")
    monkeypatch.setattr(projections, "sha256_hex", lambda data: "0" * 64)  # the new rules change the outcome
    result = verify(demo_home)
    assert isinstance(result.exception, Failure)
    assert f"(resolved by {before}, replayed by {projections.engine_version(rulesets.load('ratio-regis'))})" \
        in str(result.exception)


def test_a_gm_reruns_a_campaign_under_the_new_rules_and_it_verifies_again(demo_home, tmp_path, monkeypatch):
    """The upgrade note's way out when the new rules decide old steps differently."""
    home = tmp_path / "home"
    shutil.copytree(demo_home, home)
    monkeypatch.setattr(RatioRegis, "version", "99.0.0")
    encode = RatioRegis.encode_state
    monkeypatch.setattr(RatioRegis, "encode_state", lambda self, state: encode(self, state) + b" ")  # another state
    assert isinstance(verify(home).exception, Failure)
    rerun = CliRunner().invoke(app, ["gm", "reprocess", "ratio-demo", "start", "--release", "--reason",
                                     "pbem upgraded", "--home", str(home)])
    assert rerun.exit_code == 0, rerun.output
    result = verify(home)
    assert result.exit_code == 0, result.output
    assert "steps verified" in result.output and "resolved by" not in result.output


def test_the_deployment_guide_shows_the_shipped_files_as_they_are():
    guide = (ROOT / "docs" / "deploy.md").read_text(encoding="utf-8")
    for name in ("pbem.service", "Containerfile", "pbem.env.example"):
        assert (DEPLOY / name).read_text(encoding="utf-8") in guide, f"docs/deploy.md shows another {name}"
