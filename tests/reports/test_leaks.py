"""No report shows a viewer what the ruleset hides from them."""

from pbem.reports.models import build_receipt
from pbem.reports.renderer import MailRenderer, render_report

from tests.reports.helpers import hidden_from


def _every_report(service, name, start, formats):
    """(viewer, version, secrets, body) for every report at every log version from
    `start` (the campaign's creation), in all formats."""
    last = service.projection(name).data.version
    for version in range(start, last + 1):
        projection = service.projection(name, upto=version)
        for viewer in [*projection.data.players, "public"]:
            secrets = hidden_from(projection, viewer)
            for fmt in formats:
                yield viewer, version, secrets, render_report(projection, viewer, fmt, since_version=0)


def check_no_leaks(service, name, start, formats=("text", "html", "json")) -> int:
    checked = 0
    for viewer, version, secrets, body in _every_report(service, name, start, formats):
        leaked = sorted(s for s in secrets if s in body)
        assert not leaked, f"report for {viewer} at log version {version} shows {leaked}"
        checked += 1
    return checked


def test_toy_reports_never_leak(toy_campaign):
    assert check_no_leaks(toy_campaign.service, "toy-demo", toy_campaign.versions[0]) > 30


def test_mailed_reports_only_carry_the_recipients_hand(toy_campaign):
    service = toy_campaign.service
    projection = service.projection("toy-demo")
    by_address = {p.address: p.id for p in projection.data.players.values()}
    for mail in toy_campaign.mail:
        viewer = by_address[mail.to]
        upto = int(mail.key.split(":")[2]) if mail.key.startswith("report:") else None
        if upto is None:
            continue
        secrets = hidden_from(service.projection("toy-demo", upto=upto), viewer)
        for part in (mail.text, mail.html, *(a.data.decode("utf-8", "replace") for a in mail.attachments
                                              if a.content_type == "application/json")):
            leaked = [s for s in secrets if s in part]
            assert not leaked, (mail.key, leaked)


def test_sealed_bid_invisible_before_reveal(toy_ruleset):
    from tests.reports.conftest import TOY_PLAYERS, new_toy_service

    service = new_toy_service()
    service.create("toy-demo", "toy", {"turns": 1}, TOY_PLAYERS, secret=bytes(32))
    outcome = service.submit("toy-demo", "p1", "SIGNON p1 toy-demo t1\nBID 3\nSIGNOFF")
    projection = service.projection("toy-demo")
    assert projection.data.inputs  # p1's bid is in the log, the batch is not revealed
    for viewer in ("p2", "public"):
        for fmt in ("text", "html", "json"):
            body = render_report(projection, viewer, fmt, since_version=0)
            assert "bid#1" not in body and "orders of p1" not in body
    receipt = MailRenderer().receipt(outcome.receipt, key="k", in_reply_to=None)
    assert receipt.to == "alice@example.org" and "BID 3" in receipt.text
    gm = render_report(projection, "gm", "text")
    assert "orders of p1" in gm  # the GM sees the sealed answer waiting
    assert build_receipt(outcome.receipt).owed == []
