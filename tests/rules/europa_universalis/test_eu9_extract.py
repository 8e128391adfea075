"""The extraction of the rulebook's data is reproducible: run on the seed, it writes the
committed files byte for byte (when the seed is at hand: ../shared or /work/shared), and the
patch list refuses a seed it does not fit instead of patching it wrongly."""

from __future__ import annotations

import pytest

from pbem.rules.europa_universalis.extract import DATA, TABLES, extract, find_seed
from pbem.rules.europa_universalis.extract.__main__ import main
from pbem.rules.europa_universalis.extract.seed import Patch, Seed, SeedError, read_patches

SEED = find_seed()
needs_seed = pytest.mark.skipif(SEED is None, reason="the EU9 seed text is not at ../shared/seeds or /work/shared/seeds")


@needs_seed
def test_extracting_again_writes_the_committed_files_byte_for_byte():
    files = extract(SEED)
    assert sorted(files) == sorted(f"{table}.json" for table in TABLES)
    for name, text in files.items():
        assert (DATA / name).read_text(encoding="utf-8") == text, f"{name} differs from a fresh extraction"


@needs_seed
def test_the_check_mode_reports_a_changed_table(tmp_path, capsys):
    assert main([str(SEED), "--out", str(tmp_path)]) == 0
    assert main([str(SEED), "--out", str(tmp_path), "--check"]) == 0
    (tmp_path / "leaders.json").write_text("{}", encoding="utf-8")
    assert main([str(SEED), "--out", str(tmp_path), "--check"]) == 1
    assert "leaders.json would change" in capsys.readouterr().err


def test_a_patch_applies_to_the_line_it_names_and_keeps_the_numbering(tmp_path):
    seed = tmp_path / "seed.txt"
    seed.write_text("one\ntwo\nthree", encoding="utf-8")
    patched = Seed(seed, [Patch(line=2, was="two", now="2", reason="test")])
    assert [patched.line(n) for n in (1, 2, 3)] == ["one", "2", "three"]


def test_a_patch_that_does_not_fit_the_seed_is_refused_by_line(tmp_path):
    seed = tmp_path / "seed.txt"
    seed.write_text("one\ntwo\n", encoding="utf-8")
    with pytest.raises(SeedError, match=r"seed.txt:2: the patch list expects 'deux'"):
        Seed(seed, [Patch(line=2, was="deux", now="2", reason="test")])


def test_every_patch_gives_its_reason_and_changes_its_line():
    patches = read_patches()
    assert patches
    for patch in patches:
        assert patch.reason.strip(), f"the patch of line {patch.line} gives no reason"
        assert patch.now != patch.was, f"the patch of line {patch.line} changes nothing"


def test_a_missing_seed_is_answered_not_raised(tmp_path, capsys):
    assert main([str(tmp_path / "absent.txt"), "--out", str(tmp_path)]) == 1
    assert "cannot extract" in capsys.readouterr().err
