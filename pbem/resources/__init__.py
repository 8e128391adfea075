"""What pbem reads at run time besides its code: its report templates and the example
scenarios and campaigns.

They live at the top of the repository (`templates/`, `examples/`) and the build ships
them inside this package, as `pbem.resources.templates` and `pbem.resources.examples`
(pyproject.toml maps the folders), so they are found through `importlib.resources` the
same way from a wheel, an sdist's install or an editable checkout, whatever the working
directory. Every caller asks here; none builds a path from the source tree. (The
functions are not named after the folders: importing a folder's package sets that name.)
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path


def templates_dir() -> Path:
    """pbem's own report templates (`templates/`, and `templates/<ruleset>/` for a ruleset's)."""
    return _folder("templates")


def examples_dir() -> Path:
    """The example scenarios and campaigns (`examples/<ruleset>/…`)."""
    return _folder("examples")


def _folder(name: str) -> Path:
    found = files(f"{__name__}.{name}")
    if not isinstance(found, Path):  # imported from a zip: Jinja and the data files need real files
        raise FileNotFoundError(f"pbem's {name} are inside an archive ({found}); install pbem with pip instead")
    return found
