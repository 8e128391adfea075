"""Keep only what the sender wrote: drop quotes, forwarded history and signatures.

Players reply to their turn report, so most order mails carry the whole report back, quoted
(`>` lines, bottom or top posted), as an Outlook header block, or as a forwarded message;
phones append "Sent from my iPhone". Any of it read as orders would be garbage at best and a
replayed old order set at worst. Rules, in order:

* a line `SIGNOFF` ends the orders: it is kept, everything after it is dropped;
* a hard stop drops the line and everything after it: the signature delimiter `-- `,
  `-----Original Message-----` and its translations, forwarded-message markers, an
  Outlook-style header block (`From:` followed within a few lines by `Sent:`/`Date:`),
  a line of underscores, and phone signatures ("Sent from my iPhone");
* `>` lines are dropped wherever they are, with the "On … wrote:" line introducing them.
"""

from __future__ import annotations

import re

_SIGNOFF = re.compile(r"^\s*SIGN\s?OFF\b", re.IGNORECASE)

_HARD_STOPS = [
    re.compile(r"^--\s*$"),  # signature delimiter (`-- `, often trimmed to `--`)
    re.compile(r"^_{8,}\s*$"),  # Outlook puts a rule of underscores before the header block
    re.compile(r"^\s*-{3,}\s*[\w'’ .]+?\s*-{3,}\s*$"),  # -----Original Message----- and kin
    re.compile(
        r"^\s*(Begin forwarded message|Anfang der weitergeleiteten Nachricht|"
        r"Début du message réexpédié|Inicio del mensaje reenviado)\s*:?\s*$",
        re.IGNORECASE,
    ),
    re.compile(
        r"^\s*(Sent from my|Sent from Mail for|Get Outlook for|Sent from Outlook|"
        r"Envoyé de mon|Envoyé depuis|Von meinem .* gesendet|Gesendet von|"
        r"Enviado desde mi|Enviado do meu|Inviato da)\b",
        re.IGNORECASE,
    ),
]

# "On Mon, 3 Mar 2025 at 10:00, GM <gm@x> wrote:" in the languages players are likely to use.
_WROTE = (
    r"(wrote|writes|schrieb|a écrit|escribió|ha scritto|schreef|escreveu|skrev|napisał|"
    r"napsal|kirjoitti|írta)"
)
_ATTRIBUTION_END = re.compile(_WROTE + r"\s*:\s*$", re.IGNORECASE)
_ATTRIBUTION_ANY = re.compile(r"\b" + _WROTE + r"\b.*:\s*$", re.IGNORECASE)  # "Am … schrieb X:"
_ATTRIBUTION_START = re.compile(
    r"^\s*(On|Am|Le|El|Il|Op|Em|Den|På|W dniu|Dne|\d{1,4}[./-])\b", re.IGNORECASE
)

_HEADER_FROM = re.compile(r"^\s*\*?(From|De|Von|Da|Van|Från|Fra|Od)\s*:\*?\s", re.IGNORECASE)
_HEADER_NEXT = re.compile(
    r"^\s*\*?(Sent|Date|Gesendet|Datum|Envoyé|Enviado|Inviato|Verzonden|Skickat|Sendt|"
    r"Wysłano|To|An|À|Para|A|Aan|Till|Til|Do|Subject|Betreff|Objet|Asunto|Oggetto|"
    r"Onderwerp|Ämne|Emne|Temat)\s*:",
    re.IGNORECASE,
)


def _is_header_block(lines: list[str], i: int) -> bool:
    """`From: …` followed within 4 lines by another header (`Sent:`, `Date:`, `To:` …)."""
    if not _HEADER_FROM.match(lines[i]):
        return False
    following = [line for line in lines[i + 1 : i + 6] if line.strip()][:4]
    return any(_HEADER_NEXT.match(line) for line in following)


def _attribution_span(lines: list[str], i: int) -> int:
    """How many lines (1 or 2) form an "On … wrote:" line starting at `i`; 0 if none."""
    if _ATTRIBUTION_ANY.search(lines[i]) and (
        _ATTRIBUTION_START.match(lines[i]) or "@" in lines[i] or _next_is_quote(lines, i + 1)
    ):
        return 1
    if (
        i + 1 < len(lines)
        and _ATTRIBUTION_START.match(lines[i])
        and _ATTRIBUTION_END.search(lines[i + 1])
        and not lines[i + 1].lstrip().startswith(">")
    ):
        return 2
    return 0


def _is_quote(line: str) -> bool:
    return line.lstrip().startswith(">")


def _next_is_quote(lines: list[str], i: int) -> bool:
    following = [line for line in lines[i:] if line.strip()]
    return bool(following) and _is_quote(following[0])


def strip_reply(text: str) -> str:
    """The sender's own text in `text` (see the module docstring for the rules)."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").replace("\ufeff", "").split("\n")
    kept: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i].replace("\xa0", " ").rstrip()
        if _SIGNOFF.match(line):
            kept.append(line.strip())
            break
        if any(stop.match(line) for stop in _HARD_STOPS) or _is_header_block(lines, i):
            break
        if _is_quote(line):
            i += 1
            continue
        span = _attribution_span(lines, i)
        if span:
            i += span
            continue
        kept.append(line)
        i += 1
    return _tidy(kept)


def _tidy(lines: list[str]) -> str:
    """Drop leading/trailing blank lines and collapse runs of blank lines to one."""
    out: list[str] = []
    for line in lines:
        if not line.strip():
            if out and out[-1] != "":
                out.append("")
            continue
        out.append(line)
    while out and out[-1] == "":
        out.pop()
    return "\n".join(out)
