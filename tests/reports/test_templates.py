"""Templates run sandboxed, strict, and can be overridden per campaign."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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


def test_once_renders_a_block_once_per_value(tmp_path):
    calls = []
    env = environment(tmp_path)
    env.filters["counted"] = lambda value: calls.append(value) or value
    (tmp_path / "steps.txt.j2").write_text("{% for s in r.steps %}{% once s %}[{{ s.name | counted }}]{% endonce %}"
                                           "{% endfor %}\n")
    first = render(env, "steps.txt.j2", {"steps": [{"name": "a"}, {"name": "b"}]})
    again = render(env, "steps.txt.j2", {"steps": [{"name": "b"}, {"name": "c"}, {"name": "a"}]})
    assert (first, again) == ("[a][b]", "[b][c][a]")
    assert calls == ["a", "b", "c"]  # b and a were not rendered again


def test_once_keeps_no_block_holding_a_table_set_aside(tmp_path):
    """A table inside a once block is set aside for its own page: the block is not kept."""
    env = environment(tmp_path)
    (tmp_path / "page.html.j2").write_text(
        "<html><head><style>td { color: red; }</style></head><body>"
        "{% once r.t %}{{ r.t.columns | html_table(r.t.rows) }}{% endonce %}</body></html>")
    table = {"columns": ["A"], "rows": [["x"]]}
    pages = [render(env, "page.html.j2", {"t": table}) for _ in range(2)]
    assert pages[0] == pages[1] and '<td style="color: red;">x</td>' in pages[0]


def test_shipped_html_is_inlined_when_loaded_as_a_page_would_be_at_render(toy_campaign, tmp_path):
    """pbem's own HTML templates get their CSS when loaded; the same templates run as a
    campaign's own (inlined at every render) give the same page."""
    import shutil

    from pbem.reports.renderer import report_html
    from pbem.reports.models import build_report
    from pbem.reports.templating import TEMPLATES

    shutil.copytree(TEMPLATES, tmp_path / "same")
    projection = toy_campaign.service.projection("toy-demo")
    for viewer in ("p1", "p2", "gm", "public"):
        report = build_report(projection, viewer, since_version=0)
        loaded = report_html(report)
        rendered = report_html(report, templates_dir=tmp_path / "same")
        assert "<style" not in loaded and 'style="' in loaded
        assert loaded.replace("&#39;", "'") == rendered.replace("&#39;", "'"), viewer


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(max_size=6), max_size=4), st.lists(st.lists(st.text(max_size=8), max_size=4), max_size=4),
       st.text(max_size=8))
def test_a_shipped_table_is_written_as_the_inliner_would_write_it(columns, rows, title):
    """pbem's own tables are written with their styles rather than inlined: the same
    bytes, whatever the cells hold."""
    from pbem.reports import inlining, templating, text

    env = environment(None, None)
    written = templating._html_table(env, columns, rows, title)
    inlined = inlining.inline_fragment(text.html_table(columns, rows, title), env.pbem_css)
    assert written == inlined


def test_a_shipped_table_follows_a_stylesheet_that_styles_rows_by_position():
    """A styled table is the inliner's own output, so a rule that tells rows apart (zebra
    stripes) reaches each row as it would in a page inlined whole."""
    from pbem.reports import inlining, text

    css = "td { padding: 2px; } tr:nth-child(even) td { background: #eee; }"
    columns, rows = ("power", "troops"), (("FRA", "3"), ("HUG", "1"), ("SPA", "2"))
    styled = inlining.styled_table(columns, rows, "Armies", css)
    assert styled == inlining.inline_fragment(text.html_table(columns, rows, "Armies"), css)
    assert "<td style=\"padding: 2px;background: #eee;\">FRA</td>" in styled
    assert "<td style=\"padding: 2px;\">HUG</td>" in styled


def test_a_template_edited_while_running_renders_its_once_blocks_anew(tmp_path):
    import os

    env = environment(tmp_path)
    page = tmp_path / "step.txt.j2"
    page.write_text("{% once r %}old {{ r.n }}{% endonce %}")
    assert render(env, "step.txt.j2", {"n": 1}) == "old 1"
    page.write_text("{% once r %}new {{ r.n }}{% endonce %}")
    os.utime(page, (page.stat().st_atime, page.stat().st_mtime + 5))
    assert render(env, "step.txt.j2", {"n": 1}) == "new 1"


def test_jinja_inside_a_tag_of_pbems_own_html_is_refused_by_name():
    from jinja2 import TemplateSyntaxError

    from pbem.reports.inlining import inline_template

    with pytest.raises(TemplateSyntaxError, match=r"out of tags.*<td\{% if bad %\}"):
        inline_template('<table><tr>\n<td{% if bad %} class="bad"{% endif %}>x</td></tr></table>', "td {}",
                        "page.html.j2")
    assert inline_template("<p>{{ r.x }}</p>", "p { color: red; }") == '<p style="color: red;">{{ r.x }}</p>'
