"""`python -m pbem.rules.europa_universalis.extract [SEED] [--out DIR] [--check]`."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from pbem.rules.europa_universalis.extract import DATA, extract, find_seed
from pbem.rules.europa_universalis.extract.seed import SeedError


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pbem.rules.europa_universalis.extract",
                                     description="Extract the EU9 rulebook's tables from its seed text.")
    parser.add_argument("seed", nargs="?", type=Path, help="the seed text (default: ../shared/seeds/…)")
    parser.add_argument("--out", type=Path, default=DATA, help=f"where the tables go (default {DATA})")
    parser.add_argument("--check", action="store_true", help="write nothing; fail if a table would change")
    args = parser.parse_args(argv)
    seed = args.seed or find_seed()
    if seed is None:
        print("no seed text found; name it", file=sys.stderr)
        return 2
    try:
        files = extract(seed)
    except (SeedError, OSError, UnicodeDecodeError) as error:
        print(f"cannot extract: {error}", file=sys.stderr)
        return 1
    changed = [name for name, text in files.items()
               if not (args.out / name).is_file() or (args.out / name).read_text(encoding="utf-8") != text]
    if args.check:
        for name in changed:
            print(f"{name} would change", file=sys.stderr)
        return 1 if changed else 0
    args.out.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (args.out / name).write_text(text, encoding="utf-8")
    print(f"{len(files)} tables written to {args.out} ({len(changed)} changed)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
