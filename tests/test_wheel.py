"""pbem as a GM installs it: the sdist and the wheel built from it (as `python -m build`
does), installed into a fresh virtual environment outside the repository, and run from
an empty folder with nothing of the source tree in reach."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from pbem import __version__

ROOT = Path(__file__).resolve().parent.parent


def files_under(folder: Path) -> list[str]:
    """The files of a source folder, relative to it (compiled bytecode aside)."""
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*")
                  if p.is_file() and "__pycache__" not in p.parts)


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    subprocess.run([sys.executable, "-m", "build", "--outdir", str(out), str(ROOT)], check=True,
                   capture_output=True, timeout=300)
    return out


@pytest.fixture(scope="module")
def installed(dist, tmp_path_factory) -> Path:
    """The `bin` folder of a fresh virtual environment with pbem installed from the wheel."""
    venv = tmp_path_factory.mktemp("venv")
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    wheel = next(dist.glob("pbem-*.whl"))
    subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", str(wheel)], check=True,
                   capture_output=True, timeout=600)
    return venv / "bin"


def test_the_wheel_carries_every_module_template_and_example(dist):
    names = set(zipfile.ZipFile(next(dist.glob("pbem-*.whl"))).namelist())
    missing = [f"pbem/{name}" for name in files_under(ROOT / "pbem") if f"pbem/{name}" not in names]
    missing += [f"pbem/resources/{top}/{name}" for top in ("templates", "examples")
                for name in files_under(ROOT / top) if f"pbem/resources/{top}/{name}" not in names]
    assert not missing, f"not in the wheel (a package missing from pyproject.toml's list?): {missing}"


def test_the_sdist_keeps_the_repository_layout(dist):
    with tarfile.open(next(dist.glob("pbem-*.tar.gz"))) as sdist:
        names = set(sdist.getnames())
    top = f"pbem-{__version__}"
    missing = [f"{top}/{folder}/{name}" for folder in ("pbem", "templates", "examples")
               for name in files_under(ROOT / folder) if f"{top}/{folder}/{name}" not in names]
    assert not missing, f"not in the sdist: {missing}"


def run(bin_dir: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PBEM_", "PYTHON", "POSTGRES_", "VIRTUAL_ENV")) and k != "PERSISTENCE_MODULE"}
    result = subprocess.run([str(bin_dir / "pbem"), *args], cwd=cwd, env=env, capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 0, f"pbem {' '.join(args)} failed:\n{result.stdout}\n{result.stderr}"
    return result


def test_an_installed_pbem_plays_its_demo_and_reports_from_an_empty_folder(installed, tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    where = subprocess.run([str(installed / "python"), "-c",
                            "import pbem.resources as r; print(r.templates_dir()); print(r.examples_dir())"],
                           cwd=empty, capture_output=True, text=True, check=True).stdout.split()
    assert all(Path(p).is_relative_to(installed.parent) for p in where), where  # the wheel's, not the checkout's

    version = run(installed, "--version", cwd=empty).stdout
    assert version.startswith(f"pbem {__version__}\n")
    assert "ruleset ratio-regis" in version and "+core" in version and "eventsourcing " in version

    run(installed, "demo", "--out", "out", cwd=empty)
    reports = empty / "out" / "reports"
    assert sorted(p.name for p in reports.iterdir()) == ["p1.html", "p1.txt", "p2.html", "p2.txt", "p3.html",
                                                         "p3.txt"]
    assert "steps verified" in run(installed, "verify", "ratio-demo", "--home", "out/home", cwd=empty).stdout

    home = ("--home", "out/home")
    text = run(installed, "report", "ratio-demo", "--player", "p1", "--format", "text", *home, cwd=empty).stdout
    html = run(installed, "report", "ratio-demo", "--public", "--format", "html", *home, cwd=empty).stdout
    data = run(installed, "report", "ratio-demo", "--gm", "--format", "json", *home, cwd=empty).stdout
    assert text.strip() and "<html" in html and json.loads(data)


def test_an_installed_pbem_lists_and_copies_its_examples_and_follows_the_readme(installed, tmp_path):
    from tests.test_readme import walk_through

    listing = run(installed, "examples", "list", cwd=tmp_path).stdout
    assert "scenario  scenario.toml" in listing and "campaign  war-demo/" in listing and "empires-in-arms" in listing
    walk_through(installed, tmp_path)
    shipped = files_under(ROOT / "examples" / "ratio-regis")
    assert files_under(tmp_path / "ratio-regis") == shipped
