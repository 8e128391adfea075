"""What every extractor does to a line before reading it: the TeX and markup residue of the
PDF conversion turned back into the rulebook's plain words and symbols. These are the
conversion's systematic habits, the same on every line, so they are mended here once; damage
peculiar to one line is mended in the patch list (patches.toml) with its reason.
"""

from __future__ import annotations

import re

_TEX = (
    (re.compile(r"\\math(?:bb|sf|rm|bf|it|cal)\{([^}]*)\}"), r"\1"),
    (re.compile(r"\\(?:big)?oplus|\\bigoplus"), "⊕"),
    (re.compile(r"\\ominus"), "⊖"),
    (re.compile(r"\\(?:square|circ)\b"), ""),
    (re.compile(r"\\(alpha|beta|gamma|delta|epsilon|zeta|eta|theta|iota|kappa)\b"),
     lambda m: "αβγδεζηθικ"[("alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota",
                             "kappa").index(m.group(1))]),
    (re.compile(r"\\quad\b"), " "),
    (re.compile(r"\\times\b"), "×"),
    (re.compile(r"\^\{(\w+)\}"), r"\1"),
    (re.compile(r"\\frac\{1\}\{2\}"), "½"),
    (re.compile(r"\\geq?\b"), "≥"),
    (re.compile(r"\\leq?\b"), "≤"),
    (re.compile(r"\\underline\{\\textit\{([^}]*)\}\}"), r"\1"),
    (re.compile(r"\\(?:text|mbox)\{([^}]*)\}"), r"\1"),
    (re.compile(r"\\\\|\\,"), " "),
    (re.compile(r"\\overline\{([^}]*)\}"), r"\1"),
    (re.compile(r"</?(?:i|u|b|mark|pr|pm)>"), ""),
    (re.compile(r"[$*]"), ""),
    (re.compile(r"\bIv\."), "lv."),  # "lv." (level) read as a capital I
)
#: The ducat's many glyphs in the conversion (research §0): dropped after an amount.
DUCAT = re.compile(r"\s*[₿₽♥🗘∅]")


def plain(text: str) -> str:
    for pattern, replacement in _TEX:
        text = pattern.sub(replacement, text)
    text = DUCAT.sub("", text)
    return re.sub(r"\s+", " ", text).strip()


def names(text: str) -> list[str]:
    """A list as the rulebook writes one: "a, b, c and d." → [a, b, c, d]."""
    text = text.strip().rstrip(".,").strip()
    parts = re.split(r",\s*|\s+and\s+", text)
    return [p.strip() for p in parts if p.strip()]
