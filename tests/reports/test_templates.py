"""Templates run sandboxed, strict, and can be overridden per campaign."""

import pytest

from pbem.reports.models import Note
from pbem.reports.renderer import MailRenderer
from pbem.reports.templating import TemplateProblem, environment, render


def test_campaign_override_wins(tmp_path, toy_campaign):
    (tmp_path / "note.txt.j2").write_text("CUSTOM {{ r.title }}\n")
    mail = MailRenderer(templates_dir=tmp_path).refusal("x@example.org", "Re: hi", "no SIGNON", key="k",
                                                        in_reply_to="<m@x>")
    assert mail.text == "CUSTOM Your mail could not be used\n"
    assert "no SIGNON" in mail.html and mail.in_reply_to == "<m@x>"


def test_sandbox_and_strict_undefined(tmp_path):
    with pytest.raises(TemplateProblem):
        render(environment(tmp_path / "x"), "missing.txt.j2", Note(title="t", text="x"))
    (tmp_path / "evil.txt.j2").write_text("{{ ''.__class__.__mro__ }}")
    (tmp_path / "typo.txt.j2").write_text("{{ r.titel }}")
    for name in ("evil.txt.j2", "typo.txt.j2"):
        with pytest.raises(TemplateProblem, match=name):
            render(environment(tmp_path), name, Note(title="t", text="x"))


def test_html_escapes_player_text(toy_campaign):
    projection = toy_campaign.service.projection("toy-demo")
    mail = MailRenderer().press(projection, "p2", "p1", "<script>alert(1)</script> & hi", key="k")
    assert "<script>" not in mail.html and "&lt;script&gt;" in mail.html
    assert mail.subject == "[toy-demo] press from Alice" and mail.to == "bob@example.org"
