"""The GM's powers, by the service (as the CLI calls them) and by mail from the GM."""

from datetime import datetime, timedelta, timezone

import pytest

from pbem.core import store
from pbem.core.dice import commitment, recompute
from pbem.core.gm import Correction, GameMaster
from pbem.core.inbox import handle_mail
from pbem.core.messages import Envelope
from pbem.core.service import CampaignService, CommandError, PlayerSpec
from pbem.core.store import open_store
from pbem.reports.renderer import MailRenderer

UTC = timezone.utc
PLAYERS = [PlayerSpec(id="ann", address="ann@example.org", token="ann"),
           PlayerSpec(id="bob", address="bob@example.org", token="bob"),
           PlayerSpec(id="gm", address="gm@example.org", token="gmtok", role="gm")]


class Clock:
    def __init__(self):
        self.now = datetime(2026, 5, 1, 12, tzinfo=UTC)

    def __call__(self):
        return self.now


def game(rounds=3, renderer=None):
    clock = Clock()
    service = CampaignService(open_store(env={"PERSISTENCE_MODULE": "eventsourcing.popo"}), renderer, clock=clock)
    service.create("g", "minigame", {"rounds": rounds}, PLAYERS, settings={"deadline_hours": 24},
                   secret=bytes(range(32)))
    return service, GameMaster(service), clock


def kinds(service):
    return [type(e).__name__ for e in service.loader.campaign_events("g")]


def test_pause_holds_everything_and_resume_gives_back_the_time_left():
    service, master, clock = game()
    deadline = datetime.fromisoformat(service.projection("g").data.deadlines["bidding"])
    clock.now += timedelta(hours=4)
    master.pause("g", "a dispute about the map")
    service.submit("g", "ann", "BID 1")
    service.submit("g", "bob", "BID 2")
    assert service.projection("g").step == "bidding"  # orders taken, nothing processed
    clock.now += timedelta(days=5)
    service.tick(clock.now)
    assert "DeadlinePassed" not in kinds(service)
    master.resume("g", "settled")
    projection = service.projection("g")
    assert projection.view("gm")["leader"] == "bob"  # the held step resolves on resume
    resumed = [e for e in service.loader.campaign_events("g") if type(e).__name__ == "Resumed"]
    assert resumed and not projection.data.paused
    assert deadline - datetime(2026, 5, 1, 16, tzinfo=UTC) == timedelta(hours=20)


def test_a_pause_is_told_in_the_status_and_in_every_receipt():
    """Issue 25.12: a player writing to a paused campaign is told it is paused and why."""
    service, master, _ = game(renderer=MailRenderer(from_address="judge@example.org"))
    master.pause("g", "a dispute about the map")
    status = service.projection("g").status()
    assert (status["paused"], status["paused_reason"]) == (True, "a dispute about the map")
    outcome = service.submit("g", "ann", "BID 1")
    assert outcome.receipt.paused == "a dispute about the map"
    (receipt,) = [m for m in outcome.mail if m.key.startswith("receipt")]
    text = " ".join(receipt.text.split())
    assert "The GM has paused the campaign (a dispute about the map): your orders are kept" in text
    assert "paused the campaign (a dispute about the map)" in receipt.html
    master.resume("g", "settled")
    assert not service.projection("g").status()["paused"]
    assert service.submit("g", "bob", "BID 2").receipt.paused is None


def test_pause_twice_is_refused():
    service, master, _ = game()
    master.pause("g", "x")
    with pytest.raises(CommandError, match="already paused"):
        master.pause("g", "x")


def test_extend_and_shorten_a_deadline():
    service, master, _ = game()
    before = datetime.fromisoformat(service.projection("g").data.deadlines["bidding"])
    master.extend("g", 48, "holidays")
    master.extend("g", -12, "too generous")
    after = datetime.fromisoformat(service.projection("g").data.deadlines["bidding"])
    assert after - before == timedelta(hours=36)


def test_process_now_uses_the_missed_orders_policy():
    service, master, _ = game(rounds=1)
    service.submit("g", "ann", "BID 2")
    outcome = master.process("g", "everyone agreed")
    assert outcome.steps_resolved >= 1
    assert service.projection("g").view("gm")["leader"] == "ann"


def test_replace_gives_a_new_address_and_token():
    service, master, _ = game()
    token, _ = master.replace("g", "bob", "robert@example.org", new_name="Robert", reason="bob left")
    with pytest.raises(CommandError):
        service.authenticate("g", "bob", "bob", "bob@example.org")
    assert service.authenticate("g", "bob", token, "robert@example.org") == ("bob", None)


def test_observer_gets_no_seat_and_no_decisions():
    service, master, _ = game()
    token, _ = master.observer("g", "olga", "olga@example.org")
    projection = service.projection("g")
    assert projection.data.players["olga"].role == "observer"
    assert projection.pending_for("olga") == []


def test_a_ruling_is_a_typed_change_and_a_bad_one_changes_nothing():
    service, master, _ = game()
    master.ruling("g", "score", {"score": "40"}, "compensation for a lost mail")
    assert service.projection("g").view("gm")["score"] == 40
    version = service.campaign("g").version
    with pytest.raises(CommandError, match="cannot apply"):
        master.ruling("g", "score", {"score": "lots"}, "typo")
    with pytest.raises(CommandError, match="unknown ruling"):
        master.ruling("g", "teleport", {}, "no")
    assert service.campaign("g").version == version


def play_bids(service, ann=3, bob=1):
    service.submit("g", "ann", f"BID {ann}")
    service.submit("g", "bob", f"BID {bob}")


@pytest.mark.parametrize("page", [2000, 2])
def test_rollback_supersedes_and_reports_rebuild(page, monkeypatch):
    monkeypatch.setattr(store, "FOLD_PAGE", page)  # a rollback met in the middle of a page, or at its start
    service, master, _ = game()
    play_bids(service)
    service.submit("g", "ann", "KEEP")
    after_first = service.projection("g")
    assert after_first.step == "round-2"
    master.rollback("g", "bidding", "ann's KEEP was sent by mistake")
    projection = service.projection("g")
    assert projection.step == "round-1" and projection.pending()[0].player == "ann"
    assert projection.data.last_hash != after_first.data.last_hash
    replayed = service.loader.load("g", use_snapshots=False)
    assert replayed.divergences == [] and replayed.data.last_hash == projection.data.last_hash


def test_a_rollback_is_previewed_before_it_is_released():
    """Issue 25.12: like a rerun, a rollback first shows what it would undo — the steps and
    rolls set aside, what each view loses, the inputs to send again — and changes nothing."""
    service, master, _ = game()
    play_bids(service)
    service.submit("g", "ann", "KEEP")
    before = kinds(service)
    keep = next(e for e in service.loader.campaign_events("g") if type(e).__name__ == "OrdersSubmitted"
                and e.player == "ann" and e.step == "round-1")
    preview = master.rollback_preview("g", "bidding")
    assert kinds(service) == before  # nothing recorded
    assert [step for step, _ in preview.steps_before] == ["round-1"] and preview.steps_after == []
    assert preview.rolls_changed == [f"g|round-1/round#1: {preview_roll(service)} -> None"]
    assert preview.reports_changed["ann"] and preview.old_hash != preview.new_hash
    assert f"log version {keep.originator_version}: order set of ann" in preview.superseded
    lines = preview.lines()
    assert lines[0] == "roll back to just after step bidding"
    assert f"  superseded, to be sent again: log version {keep.originator_version}: order set of ann" in lines
    master.rollback("g", "bidding", "ann's KEEP was sent by mistake")
    assert service.projection("g").data.last_hash == preview.new_hash


def preview_roll(service):
    return next(r.value for s in service.loader.load("g", use_snapshots=False).resolved for r in s.result.rolls
                if r.purpose == "round")


def test_reprocess_with_corrected_orders_equals_playing_them_directly():
    # The campaign as it went: ann bids 3, bob 1, ann keeps, ann rerolls.
    service, master, _ = game()
    play_bids(service, 3, 1)
    service.submit("g", "ann", "KEEP")
    service.submit("g", "ann", "REROLL")
    bob_bid = next(e for e in service.loader.campaign_events("g")
                   if type(e).__name__ == "OrdersSubmitted" and e.player == "bob")
    correction = Correction("bob", "BID 5", bob_bid.originator_version)
    # The GM previews, then releases the rerun with bob's corrected bid (he sent 5; a mail
    # client mangled it into 1).
    preview = master.preview("g", "start", [correction])
    assert preview.old_hash != preview.new_hash and preview.reports_changed
    assert service.projection("g").view("gm")["leader"] == "ann"  # a preview changes nothing
    master.reprocess("g", "start", "bob's bid was mangled", [correction])
    rerun = service.projection("g")

    # The same mails played directly with the corrected bid: bob now leads, so ann's
    # KEEP and REROLL are refused in both.
    direct, _, _ = game()
    play_bids(direct, 3, 5)
    direct.submit("g", "ann", "KEEP")
    direct.submit("g", "ann", "REROLL")
    assert rerun.view("gm")["leader"] == "bob"
    assert rerun.data.last_hash == direct.projection("g").data.last_hash
    assert rerun.pending() == direct.projection("g").pending()
    assert service.loader.load("g", use_snapshots=False).divergences == []


def play_to_the_end(service):
    """Bids tied (the tiebreak draw decides), then every round kept by a standing policy."""
    for player in ("ann", "bob"):
        service.submit("g", player, "POLICY KEEP DO KEEP")
    play_bids(service, 2, 2)
    assert service.projection("g").finished


def test_reveal_lets_anyone_recompute_every_roll():
    service, master, _ = game(rounds=2)
    play_to_the_end(service)
    master.reveal("g", "end of the campaign")
    projection = service.loader.load("g", use_snapshots=False)
    secret = bytes.fromhex(projection.data.revealed_secret)
    assert commitment(secret) == projection.data.commitment
    rolls = [r for s in projection.resolved for r in s.result.rolls]
    assert rolls and all(recompute(secret, r.as_dict()) == r.value for r in rolls)


def test_the_dice_secret_is_not_revealed_while_the_campaign_runs():
    """Issue 25.1: with the secret every roll key's die (`g|round-2/round#1`) could be
    computed in advance, so a reveal before the end is refused and play keeps its secret;
    once revealed, no rollback or rerun replays steps with those known dice."""
    service, master, _ = game(rounds=2)
    with pytest.raises(CommandError, match="still being played.*once the campaign is over"):
        master.reveal("g", "during set-up")
    play_bids(service, 3, 1)
    with pytest.raises(CommandError, match="still being played"):
        master.reveal("g", "in the middle")
    assert "SeedRevealed" not in kinds(service) and service.projection("g").data.revealed_secret is None
    service.submit("g", "ann", "POLICY KEEP DO KEEP")
    master.reveal("g", "the campaign is over")
    assert service.projection("g").data.revealed_secret == bytes(range(32)).hex()
    with pytest.raises(CommandError, match="already revealed"):
        master.reveal("g", "again")
    for again in (lambda: master.rollback("g", "bidding", "replay round 1"),
                  lambda: master.reprocess("g", "bidding", "replay round 1")):
        with pytest.raises(CommandError, match="dice every player can compute"):
            again()
    assert service.projection("g").finished and "RolledBack" not in kinds(service)


def gm_mail(service, text, sender="gm@example.org", n=[0]):
    n[0] += 1
    return handle_mail(service, Envelope(sender=sender, message_id=f"<gm{n[0]}@example.org>",
                                        text=f"SIGNON gm g gmtok\n{text}", raw=text.encode() + bytes([n[0]])))


def test_gm_commands_by_mail():
    service, _, clock = game(renderer=MailRenderer(from_address="judge@example.org"))
    outcome = gm_mail(service, "GM PAUSE waiting for a ruling")
    assert service.projection("g").data.paused
    receipt = next(m for m in outcome.replies if m.key.startswith("gm-receipt"))
    assert "done: paused" in receipt.text
    announced = {m.to for m in outcome.replies if m.key.startswith("gm:")}
    assert {"ann@example.org", "bob@example.org"} <= announced
    gm_mail(service, "GM RESUME\nGM EXTEND 24 the mail server was down\nGM RULING score score=7 -- lost mail")
    assert service.projection("g").view("gm")["score"] == 7
    outcome = gm_mail(service, "GM TELEPORT bob")
    assert "refused: unknown GM command" in next(m for m in outcome.replies if m.key.startswith("gm-receipt")).text


def test_gm_commands_from_a_player_are_refused():
    service, _, _ = game()
    outcome = service.submit("g", "ann", "GM PAUSE I am tired")
    assert not service.projection("g").data.paused
    assert any("only from the GM" in v.reason for v in outcome.receipt.verdicts)


def test_a_player_can_ask_how_a_step_was_resolved():
    service, _, _ = game(renderer=MailRenderer(from_address="judge@example.org"))
    play_bids(service, 2, 2)  # a tie: the tiebreak die decides
    outcome = handle_mail(service, Envelope(sender="ann@example.org", message_id="<ex1@example.org>",
                                           text="SIGNON ann g ann\nEXPLAIN bidding", raw=b"explain"))
    explanation = next(m for m in outcome.replies if m.key.startswith("explain:"))
    assert "roll tiebreak" in explanation.text and "from orders of ann" in explanation.text
    assert "BID" not in explanation.text or "(sealed)" not in explanation.text


def test_a_rotated_token_replaces_the_old_one():
    service, master, _ = game()
    token, outcome = master.rotate_token("g", "ann", "leaked in a forum post")
    assert not outcome.mail
    with pytest.raises(CommandError, match="wrong token"):
        service.authenticate("g", "ann", "ann", "ann@example.org")
    assert service.authenticate("g", "ann", token, "ann@example.org")[0] == "ann"


def test_json_attachment_orders():
    service, _, _ = game(renderer=MailRenderer(from_address="judge@example.org"))
    envelope = Envelope(sender="ann@example.org", message_id="<j1@example.org>", text="",
                        json_orders={"signon": {"player": "ann", "campaign": "g", "token": "ann"}, "orders": ["BID 4"]},
                        raw=b"json")
    outcome = handle_mail(service, envelope)
    receipt = next(m for m in outcome.replies if m.key.startswith("receipt"))
    assert "orders received" in receipt.subject and "BID 4" in receipt.text
    assert list(service.projection("g").data.inputs.values())[0].value == 4
    bad = handle_mail(service, Envelope(sender="ann@example.org", message_id="<j2@example.org>", text="",
                                       json_orders={"orderz": []}, raw=b"bad json"))
    assert bad.replies[0].key.startswith("refusal") and "orderz: Extra inputs are not permitted" in " ".join(bad.replies[0].text.split())


def test_gm_forces_dice_by_mail():
    service, _, _ = game(renderer=MailRenderer(from_address="judge@example.org"))
    gm_mail(service, "GM DICE round 6 1 -- importing the table session")
    play_bids(service, 3, 1)
    in_progress = service.projection("g").current()[0]  # round 1 rolled, waiting for keep or reroll
    assert [(r.value, r.forced) for r in in_progress.rolls if r.purpose == "round"] == [(6, True)]
    outcome = gm_mail(service, "GM DICE round six")
    assert "refused" in next(m for m in outcome.replies if m.key.startswith("gm-receipt")).text


def test_forced_dice_are_checked_when_the_gm_sets_them():
    """Issue 25.3: a purpose the game never rolls for, or a value off its die, is refused
    by name at once, instead of stopping the step that would roll it."""
    service, master, _ = game(renderer=MailRenderer(from_address="judge@example.org"))
    with pytest.raises(CommandError, match="rolls no dice for 'combat' \\(it rolls for: round, tiebreak\\)"):
        master.force_dice("g", "combat", [1], "import")
    with pytest.raises(CommandError, match="a round die is 1 to 6 \\(§2\\), not 0, 7"):
        master.force_dice("g", "round", [0, 7, 3], "import")
    with pytest.raises(CommandError, match="a tiebreak die is at least 1"):
        master.force_dice("g", "tiebreak", [0], "import")
    refused = gm_receipt(gm_mail(service, "GM DICE round 0 7 99 -- table session"))
    assert "refused" in refused and "not 0, 7, 99" in refused
    assert "DiceForced" not in kinds(service)
    master.force_dice("g", "round", [6], "import")
    play_bids(service, 3, 1)  # the campaign goes on, with the forced die
    assert [r.value for r in service.projection("g").current()[0].rolls if r.forced] == [6]


def test_gm_commands_that_cannot_be_done_are_refused_by_name():
    """Issue 25.11: a deadline moved past the calendar, corrections from a stranger."""
    service, master, _ = game(renderer=MailRenderer(from_address="judge@example.org"))
    refused = gm_receipt(gm_mail(service, "GM EXTEND 100000000 typo"))
    assert "refused: moving the deadline by 100000000 hours takes it past the calendar" in " ".join(refused.split())
    play_bids(service)
    for rerun in (master.preview, lambda *a: master.reprocess(*a[:2], "late", a[2])):
        with pytest.raises(CommandError, match="'p9' is not a player of g"):
            rerun("g", "bidding", [Correction("p9", "KEEP")])


def gm_receipt(outcome):
    return next(m for m in outcome.replies if m.key.startswith("gm-receipt")).text


def test_every_other_gm_power_by_mail():
    service, _, _ = game(renderer=MailRenderer(from_address="judge@example.org"))
    service.submit("g", "ann", "BID 2")
    assert "done: processed" in gm_receipt(gm_mail(service, "GM PROCESS bob is away"))
    assert service.projection("g").view("gm")["leader"] == "ann"
    text = gm_receipt(gm_mail(service, "GM REPLACE bob robert@example.org Robert"))
    token = text.split("token ")[1].split()[0]
    assert service.authenticate("g", "bob", token, "robert@example.org")[0] == "bob"
    assert "observer olga signs on" in gm_receipt(gm_mail(service, "GM OBSERVER olga olga@example.org"))
    service.submit("g", "ann", "KEEP")
    preview = gm_receipt(gm_mail(service, "GM REPROCESS bidding"))
    assert "preview:" in preview and "rerun after step bidding" in preview
    released = gm_receipt(gm_mail(service, "GM REPROCESS bidding RELEASE engine update"))
    assert "rerun after bidding released" in released
    preview = gm_receipt(gm_mail(service, "GM ROLLBACK bidding ann's keep was a typo"))
    assert "preview:" in preview and "roll back to just after step bidding" in preview
    assert service.projection("g").step == "round-2"  # a preview changes nothing
    assert "rolled back" in gm_receipt(gm_mail(service, "GM ROLLBACK bidding RELEASE ann's keep was a typo"))
    assert service.projection("g").pending()[0].player == "ann"
    refused = gm_receipt(gm_mail(service, "GM REVEAL end of the season"))
    assert "refused" in refused and "still being played" in refused
    service.submit("g", "ann", "POLICY KEEP DO KEEP")
    assert "dice secret revealed" in gm_receipt(gm_mail(service, "GM REVEAL end of the season"))
    assert service.projection("g").data.revealed_secret == bytes(range(32)).hex()
    assert service.loader.load("g", use_snapshots=False).divergences == []
