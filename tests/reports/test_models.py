import json

import pytest

from pbem.reports.models import ReportError, build_report, deadline
from pbem.reports.renderer import render_report


def test_deadline_in_players_zone():
    d = deadline("2026-11-23T12:00:00+00:00", "Europe/Paris")
    assert d.local == "Mon 23 Nov 2026, 13:00 CET"
    assert d.utc_text == "Mon 23 Nov 2026, 12:00 UTC"
    bad = deadline("2026-11-23T12:00:00+00:00", "Mars/Olympus")
    assert bad.timezone == "UTC" and "unknown time zone" in bad.note


def test_first_report_prints_commitment_and_form(toy_campaign):
    first = toy_campaign.mail[0]
    projection = toy_campaign.service.projection("toy-demo")
    assert projection.data.commitment in first.text
    assert "SIGNON p1 toy-demo <your-token>\n# Sealed bid" in first.text
    assert first.text.rstrip().splitlines()[-1].startswith("Orders to gm@example.org")
    later = [m for m in toy_campaign.mail if m.key.startswith("report:") and m.key != first.key and m.to == first.to]
    assert later and all(projection.data.commitment not in m.text for m in later)


def test_order_form_replied_unchanged_accepts_defaults(toy_campaign):
    service = toy_campaign.service
    report = build_report(service.projection("toy-demo"), "p2", since_version=0)
    assert report.order_form
    reply = report.order_form.replace("<your-token>", "t2")
    outcome = service.submit("toy-demo", "p2", reply)
    assert outcome.receipt.accepted and all(v.accepted for v in outcome.receipt.verdicts)
    assert outcome.receipt.answered


def test_decisions_show_sources_and_hide_others_answers(toy_campaign):
    projection = toy_campaign.service.projection("toy-demo")
    mine = build_report(projection, "p1", since_version=0)
    own = [d for d in mine.decisions if d.player == "p1"]
    theirs = [d for d in mine.decisions if d.player == "p2"]
    assert own and all(d.answer and d.source == "orders of p1" for d in own)
    assert theirs and all(d.answer is None and d.prompt is None for d in theirs)
    assert all(d.kind != "bid" for d in theirs)  # sealed: not even listed
    assert [p.id for p in mine.policies] == ["P1"]
    assert build_report(projection, "p2", since_version=0).policies == []


def test_gm_report_has_audit(toy_campaign):
    projection = toy_campaign.service.projection("toy-demo")
    gm = build_report(projection, "gm", since_version=0)
    assert len(gm.audit.hashes) == projection.data.steps_resolved
    assert all(h.matches for h in gm.audit.hashes)
    assert {r.purpose for r in gm.audit.rolls} >= {"deal", "attack"}
    assert all(d.answer is not None for d in gm.decisions)
    assert gm.commitment and gm.policies


def test_public_gazette_has_no_owed_and_no_hands(toy_campaign):
    projection = toy_campaign.service.projection("toy-demo")
    public = build_report(projection, "public")
    assert public.owed == [] and public.order_form is None and public.policies == []
    assert not any(t.title.startswith("Hand") for t in public.sections)


def test_render_report_formats(toy_campaign):
    projection = toy_campaign.service.projection("toy-demo")
    data = json.loads(render_report(projection, "p1", "json"))
    assert data["audience"] == "player" and data["viewer"] == "p1"
    assert render_report(projection, "p1", "html").startswith("<!DOCTYPE html>")
    with pytest.raises(ReportError, match="not a player"):
        render_report(projection, "nobody", "text")
    with pytest.raises(ReportError, match="unknown format"):
        render_report(projection, "p1", "pdf")


def test_a_map_handed_out_again_is_checked_once_and_an_equal_copy_again():
    import copy

    from pbem.reports.models import game_map

    raw = {"areas": [{"id": "a", "x": 0, "y": 0, "units": ["u1"]}], "links": []}
    assert game_map(raw) is game_map(raw)
    copied = copy.deepcopy(raw)
    assert game_map(copied) is not game_map(raw) and game_map(copied) == game_map(raw)


def test_report_opens_with_what_is_owed_or_whom_the_campaign_waits_for(toy_campaign):
    service = toy_campaign.service
    owing = render_report(service.projection("toy-demo"), "p1", "text")
    assert owing.index("What you owe next") < owing.index("What happened") < owing.index("Your standing policies")
    assert "waiting for" not in owing  # p1 owes: their own duty comes first, not everybody else's
    service.submit("toy-demo", "p1", "BID 1")
    projection = service.projection("toy-demo")
    report = build_report(projection, "p1")
    assert not report.owed and [(w.name, w.powers) for w in report.waiting] == [("Bob", ["BLU"])]
    text = render_report(projection, "p1", "text")
    html = render_report(projection, "p1", "html")
    # Bob's deadline, in Alice's zone (Paris), before anything else the report tells.
    line = "Turn 2, bid phase: waiting for Bob (BLU) until Mon 23 Nov 2026, 13:00 CET your time."
    assert line in " ".join(text.split())
    assert text.index("You owe nothing now") < text.index("What happened")
    assert "waiting for <strong>Bob</strong> (BLU) until <strong>Mon 23 Nov 2026, 13:00 CET</strong> your time" in html
    assert build_report(projection, "p2").waiting == []  # Bob owes: he reads what, not whom


def test_standing_policies_are_folded_to_a_count_and_listed_on_request(toy_campaign):
    service = toy_campaign.service
    projection = service.projection("toy-demo")
    assert [p.text for p in projection.data.policies if p.player == "p1"] == ["POLICY PLAY DO PLAY Storm"]
    text = render_report(projection, "p1", "text")
    assert "1 standing policy in force: send EXPLAIN POLICIES to list them." in text
    assert "DO PLAY Storm" not in text
    outcome = service.submit("toy-demo", "p1", "EXPLAIN POLICIES")
    [answer] = [m for m in outcome.mail if m.subject.endswith("your standing policies")]
    assert answer.to == "alice@example.org" and "P1: POLICY PLAY DO PLAY Storm" in answer.text
    nothing = service.submit("toy-demo", "p2", "EXPLAIN POLICIES")
    [none] = [m for m in nothing.mail if m.subject.endswith("your standing policies")]
    assert "None. A line like POLICY" in none.text and "Storm" not in none.text
