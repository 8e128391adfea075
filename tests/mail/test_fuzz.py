"""Fuzzing (issue 12), a bounded number of examples each: the MIME parser, the envelope, the
order envelope, the Ratio Regis order grammar and the scenario loader on generated and
mutated input never raise anything but their own refusal, and every fuzzed mail that reaches
the service gets an answer while the log keeps only the recorded mail. `pbem bench intake`
runs the same on 100,000 inputs."""

from __future__ import annotations

import random
from functools import partial
import tomllib
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.core import ruleset as rulesets
from pbem.core.inbox import handle_mail
from pbem.core.mailidentity import content_digest
from pbem.core.orders import outside_lines, signon_blocks, split_orders
from pbem.core.ruleset import ScenarioError
from pbem.tools.examples import EXAMPLES
from pbem.mail.envelope import auto_mail_reason, parse_mail
from pbem.mail.intakebench import FuzzTarget, mutate, run_intake_bench
from pbem.rules.ratio_regis.orders import OrderSyntaxError, parse_line
from tests.mail.test_intake_defects import minigame_registered, service  # noqa: F401

CORPUS = sorted((Path(__file__).parent / "corpus").glob("*.eml"))
SEEDS = [p.read_bytes() for p in CORPUS if "1000_deep" not in p.name]
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
ENVELOPE_LINES = st.sampled_from([
    "SIGNON ann g ann-tok", "SIGNON bob g", "SIGNOFF", "signoff", "BID 3", "READY", "PRESS TO ALL", "PRESS",
    "ENDPRESS", "POLICY bid DO BID 1", "POLICY CLEAR ALL", "ABSENT 2027-01-01", "EXPLAIN bidding", "GM PAUSE x",
    "# comment", "", "Hi GM,", "> quoted", "-- ", "Cheers,"])


@FUZZ
@given(seed=st.sampled_from(SEEDS), rng=st.randoms(use_true_random=False))
def test_mutated_real_mail_always_gives_an_envelope(seed: bytes, rng: random.Random) -> None:
    raw = mutate(seed, rng)
    envelope = parse_mail(raw)
    assert envelope.raw == raw and envelope.message_id.startswith("<")
    assert all(c.isprintable() for c in envelope.sender + envelope.subject + envelope.message_id)
    auto_mail_reason(raw, own_addresses=("gm@pbem.test",))
    assert content_digest(raw) == content_digest(raw)


@FUZZ
@given(st.binary(max_size=4000))
def test_any_bytes_have_an_identity_and_a_verdict(raw: bytes) -> None:
    assert len(content_digest(raw)) == 64
    auto_mail_reason(raw)
    parse_mail(raw)


@FUZZ
@given(st.lists(st.one_of(ENVELOPE_LINES, st.text(max_size=40)), max_size=40))
def test_the_order_envelope_reads_only_inside_blocks(lines: list[str]) -> None:
    text = "\n".join(lines)
    outside = {number for number, _ in outside_lines(text)}
    for block in signon_blocks(text):
        parts = split_orders(block.text, first_line=block.first_line)
        assert not outside & {number for number, _ in parts.orders}
        if parts.signon is not None:
            assert block.text.split()[0].upper() == "SIGNON"


@FUZZ
@given(st.one_of(st.text(max_size=120),
                 st.builds(lambda rng: mutate(b"FRA II MOVE TROOP FROM Paris TO Lyon", rng).decode("utf-8", "replace"),
                           st.randoms(use_true_random=False))))
def test_the_ratio_regis_grammar_refuses_or_reads(line: str) -> None:
    try:
        parse_line(line)
    except OrderSyntaxError as error:
        assert str(error)


SCENARIO = (EXAMPLES / "ratio-regis" / "scenario.toml").read_text()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.randoms(use_true_random=False))
def test_the_scenario_loader_refuses_or_loads(rng: random.Random) -> None:
    game = rulesets.load("ratio-regis")
    text = mutate(SCENARIO.encode(), rng).decode("utf-8", "replace")
    try:
        game.check_scenario(game.load_scenario(tomllib.loads(text)))
    except (tomllib.TOMLDecodeError, ScenarioError):
        pass


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.sampled_from(SEEDS), rng=st.randoms(use_true_random=False))
def test_fuzzed_mail_is_answered_and_only_recorded(seed: bytes, rng: random.Random) -> None:
    svc = service()
    before = [type(e).__name__ for e in svc.loader.campaign_events("g")]
    envelope = parse_mail(mutate(seed, rng))
    outcome = handle_mail(svc, envelope)
    if "@" in envelope.sender:
        assert outcome.replies and all(m.key.startswith("refusal:") for m in outcome.replies)
    assert [type(e).__name__ for e in svc.loader.campaign_events("g")] == before  # strangers change nothing


def test_the_intake_bench_runs_a_few_inputs() -> None:
    grammar = FuzzTarget("orders", ("FRA I BUILD TROOP Q2 AT Paris",), parse_line, (OrderSyntaxError,), takes_lines=True)
    result = run_intake_bench(150, targets=[grammar], handler=partial(handle_mail, service()), service_every=10)
    assert result["escapes"] == 0, result["escape_samples"]
    assert result["unanswered"] == 0 and result["service_mails"] > 0
    assert result["corpus_mails"] >= 40 and result["corpus_exact"] == result["corpus_mails"]


def test_an_escape_is_counted() -> None:
    def broken(text: str) -> None:
        raise KeyError(text)

    result = run_intake_bench(5, targets=[FuzzTarget("broken", ("x",), broken, (ValueError,))], corpus=Path("/nonexistent"))
    assert result["escapes"] == 5 and "KeyError" in result["escape_samples"][0]
