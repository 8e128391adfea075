"""Intake bench: real-client mail read exactly, and mutated mail never escaping as an exception.

Two measures (issue 12). (1) The corpus: every mail of `tests/mail/corpus` is read and its
text and order blocks compared with what they must be (`corpus_exact` of `corpus_mails`).
(2) Fuzzing: `n_inputs` mails made by mutating the corpus mails (bytes flipped, spans cut or
doubled, MIME and header fragments, control characters, deep nesting, long lines) go through
the whole intake: MIME parsing, the storm guards, the mail's identity, the order envelope
(SIGNON blocks, JSON attachments), every order grammar and scenario loader given as a
`FuzzTarget`, and one mail in `service_every` through the campaign service itself. An
exception other than a target's own refusal is an escape (must be 0); a mail with a sender
the service leaves without an answer is unanswered (must be 0). Deterministic for a seed.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from pbem.core.jsonorders import mail_order_text
from pbem.core.mailidentity import content_digest
from pbem.core.messages import Envelope, MailOutcome
from pbem.core.orders import outside_problem, signon_blocks, split_orders
from pbem.mail.envelope import auto_mail_reason, parse_mail
from pbem.mail.guards import refusal_counters

CORPUS = Path(__file__).resolve().parents[2] / "tests" / "mail" / "corpus"
_FRAGMENTS = [
    b"\n--", b"\r\n", b"\x00", b"\r", b"\x1b[2J", b"=?utf-8?b?", b"?=", b"=?x-unknown?q?=FF=00?=", b"=\n", b"=FF",
    b"Content-Type: multipart/mixed; boundary=\"b\"\n", b"Content-Type: text/html\n", b"--b\n", b"--b--\n",
    b"Content-Transfer-Encoding: base64\n", b"Content-Transfer-Encoding: quoted-printable\n",
    b"Content-Disposition: attachment; filename=\"../../etc/passwd.txt\"\n", b"charset=\"us-ascii\"",
    b"From: ", b"<>", b"@", b"Message-ID: <\x00@x>\n", b"SIGNON ", b"SIGNOFF\n", b"PRESS TO ALL\n", b"ENDPRESS\n",
    b"POLICY FOR FRA bid WHEN x>=3 AND DO BID 1\n", b"> ", b"On Mon, 4 May 2026, GM wrote:\n",
    b"-----BEGIN PGP SIGNED MESSAGE-----\n", b"-----BEGIN PGP SIGNATURE-----\n", b"- ", b"\xff\xfe", b"\xc3\x28",
    "é€😀\u202e".encode(), b"<blockquote>", b"<br>", b"</div>", b"&#0;", b"&nbsp;", b"\t", b" " * 80,
]


@dataclass(frozen=True)
class FuzzTarget:
    """A reader of untrusted text (an order grammar, a scenario loader): `call` on mutated
    `seeds` may only raise one of `refusals`, its way of saying the text is wrong. A target
    that `takes_lines` (a grammar) is given order lines as the order envelope hands them
    over — the lines of each fuzzed mail, and of each mutated seed: stripped, never blank."""

    name: str
    seeds: tuple[str, ...]
    call: Callable[[str], object]
    refusals: tuple[type[BaseException], ...]
    every: int = 1
    takes_lines: bool = False


def orders_of(envelope: Envelope) -> str:
    """Each SIGNON block of a mail as the service reads it: who signs on (or why the block
    is refused), then its order lines, policies and READY; blocks apart by a blank line. A
    JSON attachment that is not an order set refuses the whole mail."""
    text, problem = mail_order_text(envelope)
    if problem:
        return f"REFUSED: {problem}"
    blocks = []
    for block in signon_blocks(text):
        parts = split_orders(block.text, first_line=block.first_line)
        head = (f"SIGNON {parts.signon.player} {parts.signon.campaign}" if parts.signon
                else f"REFUSED: {parts.signon_error or 'no SIGNON'}")
        lines = [head, *(line for _, line in parts.orders), *(p.text for p in parts.policies)]
        blocks.append("\n".join(lines + (["READY"] if parts.ready else [])))
    return "\n\n".join(blocks)


def read_exactly(eml: Path, *, own_address: str = "gm@pbem.test") -> bool:
    """True when a corpus mail is read as its `.expected.txt` / `.orders.txt` say."""
    raw = eml.read_bytes()
    want = (eml.parent / f"{eml.stem}.expected.txt").read_text(encoding="utf-8").rstrip("\n")
    reason = auto_mail_reason(raw, own_addresses=(own_address,))
    if want.startswith("AUTO: "):
        return reason == want.removeprefix("AUTO: ")
    envelope = parse_mail(raw)
    orders = eml.parent / f"{eml.stem}.orders.txt"
    json_file = eml.parent / f"{eml.stem}.expected.json"
    return (reason is None and envelope.text == want
            and (not orders.exists() or orders_of(envelope) == orders.read_text(encoding="utf-8").rstrip("\n"))
            and envelope.json_orders == (json.loads(json_file.read_text()) if json_file.exists() else None))


def mutate(data: bytes, rng: random.Random) -> bytes:
    """One to four random edits of `data`."""
    for _ in range(rng.randint(1, 4)):
        data = _MUTATIONS[rng.randrange(len(_MUTATIONS))](data, rng)
    return data


def _flip(data: bytes, rng: random.Random) -> bytes:
    if not data:
        return bytes([rng.randrange(256)])
    at = rng.randrange(len(data))
    return data[:at] + bytes([rng.randrange(256)]) + data[at + 1:]


def _cut(data: bytes, rng: random.Random) -> bytes:
    a, b = sorted(rng.randrange(len(data) + 1) for _ in range(2))
    return data[:a] + data[b:]


def _double(data: bytes, rng: random.Random) -> bytes:
    a, b = sorted(rng.randrange(len(data) + 1) for _ in range(2))
    return data[:b] + data[a:b] * rng.randint(1, 8) + data[b:]


def _insert(data: bytes, rng: random.Random) -> bytes:
    at = rng.randrange(len(data) + 1)
    return data[:at] + rng.choice(_FRAGMENTS) * rng.randint(1, 3) + data[at:]


def _swap_lines(data: bytes, rng: random.Random) -> bytes:
    lines = data.split(b"\n")
    rng.shuffle(lines) if rng.random() < 0.1 else lines.insert(rng.randrange(len(lines) + 1), rng.choice(lines))
    return b"\n".join(lines)


def _nest(data: bytes, rng: random.Random) -> bytes:
    depth = rng.choice([2, 10, 60, 300])
    head, _, body = data.partition(b"\n\n")
    opening = b"".join(b'Content-Type: multipart/mixed; boundary="n%d"\n\n--n%d\n' % (i, i) for i in range(depth))
    return head + b"\nMIME-Version: 1.0\n" + opening + b"Content-Type: text/plain\n\n" + body


def _long_line(data: bytes, rng: random.Random) -> bytes:
    at = rng.randrange(len(data) + 1)
    return data[:at] + rng.choice([b"A", b"SIGNON x ", b"> ", b"\xe9"]) * rng.randint(1_000, 5_000) + data[at:]


_MUTATIONS: list[Callable[[bytes, random.Random], bytes]] = [
    _flip, _flip, _cut, _double, _insert, _insert, _insert, _swap_lines, _nest, _long_line]


def _read_envelope(envelope: Envelope) -> list[str]:
    """The order envelope on a fuzzed mail, as the service would read it; its order lines."""
    text, _ = mail_order_text(envelope)
    outside_problem(text)
    refusal_counters(envelope)
    lines = []
    for block in signon_blocks(text):
        lines += [line for _, line in split_orders(block.text, first_line=block.first_line).orders]
    return lines


def run_intake_bench(n_inputs: int = 100_000, *, seed: int = 0, targets: Sequence[FuzzTarget] = (),
                     handler: Callable[[Envelope], MailOutcome] | None = None, service_every: int = 100,
                     corpus: Path = CORPUS) -> dict:
    """Run the bench; returns JSON-ready figures (see the module docstring)."""
    rng = random.Random(seed)
    mails = sorted(corpus.glob("*.eml")) if corpus.is_dir() else []
    exact = sum(read_exactly(eml) for eml in mails)
    seeds = [eml.read_bytes() for eml in mails] or [b"From: a@b.c\n\nSIGNON a b c\nSIGNOFF\n"]
    escapes: list[str] = []
    runs = {target.name: 0 for target in targets}
    served = unanswered = 0
    start = time.perf_counter()

    def attempt(where: str, data: bytes | str, call: Callable[[], object],
                refusals: tuple[type[BaseException], ...] = ()) -> object:
        try:
            return call()
        except refusals:
            return None
        except Exception as error:  # noqa: BLE001 - counting escapes is the point
            escapes.append(f"{where}: {type(error).__name__}: {str(error)[:120]} (input {data[:80]!r})")
            return None

    for number in range(n_inputs):
        raw = mutate(rng.choice(seeds), rng)
        envelope = attempt("parse_mail", raw, lambda: parse_mail(raw))
        attempt("auto_mail_reason", raw, lambda: auto_mail_reason(raw, own_addresses=("gm@pbem.test",)))
        attempt("content_digest", raw, lambda: content_digest(raw))
        if not isinstance(envelope, Envelope):
            continue
        lines = attempt("order envelope", envelope.text, lambda: _read_envelope(envelope)) or []
        for target in targets:
            if number % target.every:
                continue
            mutated = mutate(rng.choice(target.seeds).encode(), rng).decode("utf-8", "replace")
            if target.takes_lines:  # as the order envelope hands them over: stripped, never blank
                texts = lines[:20] + [line for _, line in split_orders(mutated).orders][:20]
            else:
                texts = [mutated]
            for text in texts:
                runs[target.name] += 1
                attempt(target.name, text, lambda: target.call(text), target.refusals)
        if handler is not None and number % service_every == 0 and auto_mail_reason(raw) is None:
            outcome = attempt("service", raw, lambda: handler(envelope))
            served += 1
            if isinstance(outcome, MailOutcome) and "@" in envelope.sender and not outcome.replies:
                unanswered += 1
    seconds = time.perf_counter() - start
    return {
        "fuzz_inputs": n_inputs,
        "escapes": len(escapes),
        "escape_samples": escapes[:5],
        "target_runs": runs,
        "service_mails": served,
        "unanswered": unanswered,
        "corpus_mails": len(mails),
        "corpus_exact": exact,
        "seconds": round(seconds, 2),
        "inputs_per_s": round(n_inputs / seconds, 1) if seconds else None,
        "seed": seed,
    }
