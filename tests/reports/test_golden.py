"""Golden files: every mail of the toy campaign, and the GM's and public reports, as
text and HTML (`PBEM_UPDATE_GOLDEN=1` rewrites them)."""

from pbem.reports.renderer import render_report

from tests.reports.helpers import assert_golden


def test_toy_mail_matches_golden(toy_campaign):
    for mail in toy_campaign.mail:
        assert_golden("toy", mail.key + ".txt", f"To: {mail.to}\nSubject: {mail.subject}\n\n{mail.text}")
        assert_golden("toy", mail.key + ".html", mail.html)
        assert [a.filename for a in mail.attachments] in ([], ["map.png", "report.json"])


def test_toy_gm_and_public_match_golden(toy_campaign):
    projection = toy_campaign.service.projection("toy-demo")
    for viewer in ("gm", "public"):
        for fmt, ext in (("text", "txt"), ("html", "html"), ("json", "json")):
            assert_golden("toy", f"{viewer}.{ext}", render_report(projection, viewer, fmt, since_version=0))
