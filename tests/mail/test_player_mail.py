"""Issue 25, players' mail: what a player's mail says is read as they meant it, and the answer
says exactly what happened. The example Ratio Regis campaign, by mail, through the service."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import pytest

from pbem.app import build_service
from pbem.core.inbox import handle_mail
from pbem.core.messages import MailOutcome
from pbem.core.service import CampaignService
from pbem.core.store import open_store
from pbem.mail.envelope import parse_mail
from pbem.reports.renderer import MailRenderer
from pbem.resources import examples_dir
from pbem.tools.demo import as_mail
from pbem.tools.examples import create_example, deliver_example
from tests.mail.test_real_mail_shapes import alternative

DEMO = examples_dir() / "ratio-regis" / "demo"
SIGNON = "SIGNON p1 ratio-demo fleur-de-lys"
SCRIPT = "PLAY 5 POINTS FRA=2\nFRA I BUILD TROOP Q2 AT Paris\nFRA C5 REGROUP T5 AT Rouen PATH Rouen>Paris\nDONE"


def at_first_impulse(**settings: object) -> CampaignService:
    """The demo campaign by mail, up to p1's first impulse (p1 owes it)."""
    service = CampaignService(open_store(env={"PERSISTENCE_MODULE": "eventsourcing.popo"}),
                              MailRenderer(from_address="gm@example.org"),
                              clock=lambda: datetime(2026, 1, 5, 9, tzinfo=timezone.utc))
    for delivery in deliver_example(service, DEMO, upto=7, settings=dict(settings) or None):
        assert not delivery.refused
    assert [r.kind for r in service.projection("ratio-demo").pending_for("p1")] == ["impulse"]
    return service


def mail(service: CampaignService, body: str, number: int = 1) -> MailOutcome:
    return handle_mail(service, parse_mail(as_mail(body, sender="anne@example.org", to="gm@example.org",
                                                   number=100 + number, name="ratio-demo")))


def receipt(outcome: MailOutcome) -> str:
    return next(m.text for m in outcome.replies if m.key.startswith(("receipt", "refusal")))


def built(service: CampaignService) -> bool:
    """Whether p1's impulse script was taken (the demo's ends it and hands the turn on)."""
    return not service.projection("ratio-demo").pending_for("p1")


# item 6: lines after a block's end are not orders

@pytest.mark.parametrize("closing", ["Un abrazo\nEnrique", "Enrique", "Un abrazo,\n\nEnrique\nMadrid"])
def test_a_closing_after_done_without_signoff_leaves_the_script_whole(closing: str) -> None:
    service = at_first_impulse()
    outcome = mail(service, f"{SIGNON}\n{SCRIPT}\n\n{closing}\n")
    assert built(service), receipt(outcome)
    assert any("orders received" in m.subject for m in outcome.replies)
    assert "Enrique" not in receipt(outcome).replace("(1 line after DONE)", "")


def test_an_order_after_done_is_not_carried_out_and_the_receipt_says_so() -> None:
    service = at_first_impulse()
    outcome = mail(service, f"{SIGNON}\n{SCRIPT}\nFRA II BUILD TROOP Q2 AT Paris\nSIGNOFF\n")
    assert built(service)
    text = " ".join(receipt(outcome).split())
    assert "(1 line after DONE)" in text and "not read as orders: line 5 ends the block" in text


def test_a_signature_the_html_part_marks_is_not_read_from_the_plain_part() -> None:
    """Thunderbird writes the signature into the plain part without `-- ` and marks it in the
    HTML part (`<div class="moz-signature">`)."""
    plain = f"{SIGNON}\n{SCRIPT}\n\nEnrique Pérez\nCapitán de la Liga\n"
    html = ("<html><body><p>" + f"{SIGNON}\n{SCRIPT}".replace("\n", "<br>") + "</p>"
            '<div class="moz-signature"><div>Enrique Pérez</div><div>Capitán de la Liga</div></div></body></html>')
    envelope = parse_mail(alternative(plain, html, sender="anne@example.org"))
    assert envelope.text == f"{SIGNON}\n{SCRIPT}"
    service = at_first_impulse()
    outcome = handle_mail(service, envelope)
    assert built(service) and "Capitán" not in receipt(outcome)


# item 7: a receipt says exactly what happened

def flat(text: str) -> str:
    return " ".join(text.split())


def test_a_refused_script_marks_no_line_as_carried_out_and_says_what_else_was_done() -> None:
    service = at_first_impulse()
    outcome = mail(service, f"{SIGNON}\nPLAY 5 POINTS FRA=2\nFRA I BUILD TROOP Q2 AT Paris\n"
                            "FRA I BUILD TROOP Q2 AT Nowhere\nDONE\nPRESS TO ALL\nGreetings.\nENDPRESS\n"
                            "EXPLAIN t1/start\nSIGNOFF\n")
    text = receipt(outcome)
    assert not built(service)
    assert "ok:" not in text
    assert ("NOT CARRIED OUT: read as FRA builds T13 (Q2) at Paris, but the order set was refused whole"
            in flat(text))
    assert "Your order lines for campaign ratio-demo were NOT used: your impulse script was refused" in flat(text)
    assert "The rest of your mail was read as below." in flat(text)
    assert "press to ALL relayed" in text and "EXPLAIN t1/start: answered in a separate mail" in flat(text)
    assert [m.key.split(":")[0] for m in outcome.replies].count("press") == 2
    assert any(m.key.startswith("explain:") for m in outcome.replies)


@pytest.mark.parametrize("reports", ["when-owed", "every-step"])
def test_a_receipt_promises_a_report_only_when_one_is_mailed(reports: str) -> None:
    service = at_first_impulse(reports=reports)
    outcome = mail(service, f"{SIGNON}\n{SCRIPT}\nSIGNOFF\n")
    assert built(service)
    mailed = any(m.key.startswith("report:") and m.key.endswith(":p1") for m in outcome.replies)
    assert mailed == (reports == "every-step")
    text, html = next((m.text, m.html) for m in outcome.replies if m.key.startswith("receipt"))
    assert ("Your report follows in a separate mail." in flat(text)) == mailed
    assert ("Your report follows in a separate mail." in html) == mailed


# item 8: HELP, LIST, a negative bid, the address orders go to

def test_help_and_list_without_signon_answer_the_players_campaigns_and_what_they_owe() -> None:
    service = at_first_impulse()
    outcome = mail(service, "HELP\nLIST\n")
    (note,) = outcome.replies
    assert note.key.startswith("help:") and note.to == "anne@example.org"
    text = flat(note.text)
    assert "ratio-demo (ratio-regis): you are p1; at t6/impulse-1; you owe: Your impulse" in text
    assert ("ratio-demo, impulse: your whole impulse as a script of PLAY, action and DONE lines (§8.2.2); "
            "by default: PLAY 5 POINTS FRA=2 / DONE") in text
    assert "EXPLAIN <step>" in text and "keywords" not in text
    again = mail(service, "HELP\nLIST\n")
    assert again.duplicate and [m.text for m in again.replies] == [note.text]


def test_help_in_an_order_block_is_answered_in_the_receipt() -> None:
    service = at_first_impulse()
    text = flat(receipt(mail(service, f"{SIGNON}\nHELP\nLIST\nSIGNOFF\n")))
    assert "2 HELP ok: answered below" in text and "3 LIST ok: answered below" in text
    assert "Help: the lines that answer what you owe" in text and "ratio-demo, impulse: your whole impulse" in text
    assert "Your campaigns" in text and "you are p1; at t6/impulse-1" in text


def test_list_from_an_address_that_plays_nowhere_is_refused_as_such() -> None:
    service = at_first_impulse()
    outcome = handle_mail(service, parse_mail(as_mail("LIST\n", sender="stranger@example.net", to="gm@example.org",
                                                      number=300, name="x")))
    (refusal,) = outcome.replies
    assert refusal.key.startswith("refusal:") and "stranger@example.net plays in no campaign here" in flat(
        refusal.text)


def test_a_negative_bid_is_refused_as_negative() -> None:
    service = CampaignService(open_store(env={"PERSISTENCE_MODULE": "eventsourcing.popo"}),
                              MailRenderer(from_address="gm@example.org"))
    list(deliver_example(service, DEMO, upto=0))
    text = flat(receipt(mail(service, f"{SIGNON}\nBID -4\nSIGNOFF\n")))
    assert "NOT USED: a bid cannot be negative (-4); write 0 or more" in text


def test_the_mail_names_the_address_the_home_takes_orders_at(tmp_path: Path) -> None:
    (tmp_path / "pbem.toml").write_text('[mail]\nfrom = "orders@guild.example"\n')
    service = build_service(tmp_path)
    _, _, created = create_example(service, DEMO)
    assert created.mail and all("Orders to orders@guild.example." in m.text for m in created.mail)
    assert not any("pbem@localhost" in m.text for m in created.mail)
