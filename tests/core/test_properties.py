"""Properties of the fold: whatever players send, replaying the log gives the live state,
and no order text, however malformed, raises."""

from hypothesis import HealthCheck, given, settings, strategies as st

from pbem.core.inbox import handle_mail
from pbem.core.service import CampaignService, PlayerSpec
from pbem.core.store import open_store

PLAYERS = [PlayerSpec(id=p, address=f"{p}@example.org", token=p) for p in ("ann", "bob")]
LINES = st.sampled_from(["BID 0", "BID 3", "BID 7", "KEEP", "REROLL", "BID", "HELLO", "POLICY keep DO KEEP",
                         "POLICY keep WHEN value<=2 DO REROLL", "POLICY CLEAR ALL", "SIGNOFF", ""])
SUBMISSIONS = st.lists(st.tuples(st.sampled_from(["ann", "bob"]), st.lists(LINES, max_size=4)), max_size=12)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(SUBMISSIONS)
def test_replay_equals_live_state(minigame_registered, submissions):
    service = CampaignService(open_store(env={"PERSISTENCE_MODULE": "eventsourcing.popo"}))
    service.create("p", "minigame", {"rounds": 2}, PLAYERS, secret=bytes(32))
    for player, lines in submissions:
        outcome = service.submit("p", player, "\n".join(lines))
        assert outcome.receipt is not None
    live = service.projection("p")
    replayed = service.loader.load("p", use_snapshots=False)
    assert replayed.divergences == []
    assert replayed.data.last_hash == live.data.last_hash
    assert replayed.pending() == live.pending()


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(max_size=300), st.sampled_from(["ann@example.org", "eve@evil.invalid", "", "no-at-sign"]))
def test_any_mail_gets_an_answer_and_never_an_exception(minigame_registered, body, sender):
    from pbem.core.messages import Envelope

    service = CampaignService(open_store(env={"PERSISTENCE_MODULE": "eventsourcing.popo"}))
    service.create("p", "minigame", {"rounds": 1}, PLAYERS, secret=bytes(32))
    for text in (body, "SIGNON ann p ann\n" + body):
        envelope = Envelope(sender=sender, message_id=f"<{abs(hash(text))}@t>", text=text, raw=text.encode())
        outcome = handle_mail(service, envelope)
        if "@" not in sender:
            assert not outcome.replies  # nobody to answer
        elif sender != "ann@example.org" or "SIGNON" not in text:
            assert outcome.replies[0].key.startswith("refusal")
