"""Keep only what the sender wrote: drop quotes, forwarded history and signatures.

Players reply to their turn report, so most order mails carry the whole report back, quoted
(`>` lines, bottom or top posted), as an Outlook header block, or as a forwarded message;
phones append "Sent from my iPhone". Any of it read as orders would be garbage at best and a
replayed old order set at worst. Rules, in order:

* a PGP clear-signed mail is read without its armor and signature, dash-escaping undone;
* a line `SIGNOFF` ends a block of orders (outside a PRESS TO … ENDPRESS letter, read by the
  same rule as the order reader's, `pbem.core.orders.press_recipient`): it is kept; another SIGNON block may follow
  (several blocks in one mail), but everything after the last SIGNOFF is dropped unless
  it holds a SIGNON;
* a hard stop drops the line and everything after it: the signature delimiter `-- `,
  `-----Original Message-----` and its translations, forwarded-message markers, an
  Outlook-style header block (`From:` followed within a few lines by `Sent:`/`Date:`),
  a line of underscores, phone signatures ("Sent from my iPhone") and, once orders have
  begun, a closing line alone ("Cheers,", "Best regards", "Cordialement") — the signature
  of the many players whose client adds no `-- `;
* `>` lines are dropped wherever they are, with the "On … wrote:" line introducing them
  (one line, or two where the client wrapped it); an attribution followed by unquoted text
  (webmail that quotes without `>`) ends the new text.
"""

from __future__ import annotations

import re

from pbem.core.orders import press_closes, press_recipient

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

_SIGNON = re.compile(r"^\s*SIGNON\b", re.IGNORECASE)
_CLOSING = re.compile(
    r"^\s*(thanks|thank you|cheers|regards|best|best regards|kind regards|warm regards|all the best|"
    r"yours|sincerely|cordialement|bien à vous|amitiés|merci|bises|viele grüße|liebe grüße|"
    r"mit freundlichen grüßen|gruß|grüße|saludos|un saludo|atentamente|ciao|saluti|groeten|"
    r"met vriendelijke groet|mvh|hälsningar|best wishes|take care|greetings|hugs|love|"
    r"un abrazo|un fuerte abrazo|abrazos|besos|um abraço|abraços|cumprimentos|à bientôt|a bientot|"
    r"bien amicalement|a presto|un saluto|cordiali saluti|tschüss|pozdrawiam|s pozdravem)\s*[,.!]*\s*$",
    re.IGNORECASE,
)
_PGP_BEGIN = "-----BEGIN PGP SIGNED MESSAGE-----"
_PGP_SIGNATURE = "-----BEGIN PGP SIGNATURE-----"
_PGP_END = "-----END PGP SIGNATURE-----"

# "On Mon, 3 Mar 2025 at 10:00, GM <gm@x> wrote:" in the languages players are likely to use.
_WROTE = (
    r"(wrote|writes|schrieb|a écrit|écrit|escribió|ha scritto|schreef|escreveu|skrev|napisał|"
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


def unarmor(lines: list[str]) -> list[str]:
    """A PGP clear-signed text without its armor, hash header and signature (RFC 4880 §7):
    the signed lines, dash-escaping (`- `) undone. Other text is returned as it is."""
    out: list[str] = []
    state = "text"  # text → header (after BEGIN) → signed → signature (until END) → text
    for line in lines:
        bare = line.strip()
        if state == "text" and bare == _PGP_BEGIN:
            state = "header"
        elif state == "header":
            state = "header" if bare else "signed"
        elif state == "signed" and bare == _PGP_SIGNATURE:
            state = "signature"
        elif state == "signature":
            state = "text" if bare == _PGP_END else "signature"
        else:
            out.append(line[2:] if state == "signed" and line.startswith("- ") else line)
    return out


def strip_reply(text: str) -> str:
    """The sender's own text in `text` (see the module docstring for the rules)."""
    lines = unarmor(text.replace("\r\n", "\n").replace("\r", "\n").replace("\ufeff", "").split("\n"))
    kept: list[str] = []
    last_signoff: int | None = None
    in_orders = in_press = False
    i = 0
    while i < len(lines):
        line = lines[i].replace("\xa0", " ").rstrip()
        if not in_press and _SIGNOFF.match(line):
            kept.append(line.strip())
            last_signoff, in_orders = len(kept), False
            i += 1
            continue
        if any(stop.match(line) for stop in _HARD_STOPS) or _is_header_block(lines, i):
            break
        if in_orders and not in_press and _CLOSING.match(line):
            break  # a signature: "Thanks!" inside a press message is the message
        if _is_quote(line):
            i += 1
            continue
        span = _attribution_span(lines, i)
        if span:
            if not _next_is_quote(lines, i + span):
                break  # quoted without `>`: what follows is the old text
            i += span
            continue
        in_orders = in_orders or bool(_SIGNON.match(line))
        in_press = not press_closes(line) if in_press else press_recipient(line) is not None
        kept.append(line)
        i += 1
    if last_signoff is not None and not any(_SIGNON.match(line) for line in kept[last_signoff:]):
        kept = kept[:last_signoff]
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
