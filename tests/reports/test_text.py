import textwrap

from hypothesis import given
from hypothesis import strategies as st

from pbem.reports.text import WIDTH, pluck, table, wrap


def test_wrap_keeps_paragraphs_and_long_words():
    text = "word " * 40 + "\n\n" + "x" * 80
    lines = wrap(text, indent="  ").splitlines()
    assert all(len(line) <= WIDTH for line in lines[:-1])
    assert lines[-1] == "  " + "x" * 80  # a hash stays whole, copyable
    assert "" in lines


def test_table_aligns_and_fits_72_columns():
    rows = [["Paris", "France", "army " * 20], ["Wien", "Austria", "fleet"]]
    out = table(["Area", "Held by", "Units"], rows)
    lines = out.splitlines()
    assert all(len(line) <= WIDTH for line in lines)
    assert lines[0].index("Held by") == lines[2].index("France") == lines[-1].index("Austria")
    assert len(lines) > 4  # the long cell wrapped onto continuation lines


def test_table_without_rows_says_none():
    assert table(["A"], []) == "(none)"


def test_pluck_flattens_records():
    assert pluck([{"a": ["x", "y"], "b": None, "c": True}], "a", "b", "c") == [["x, y", "", "yes"]]


@given(st.lists(st.text(alphabet="ab-é§.,'", min_size=1, max_size=30), min_size=1, max_size=25),
       st.integers(min_value=8, max_value=80), st.sampled_from(["", "# ", "    "]), st.sampled_from([None, "  "]))
def test_wrap_fills_lines_exactly_as_textwrap(words, width, indent, hanging):
    """The fast path for plain single-spaced text gives textwrap's lines, long words and
    hyphens included."""
    paragraph = " ".join(words)
    expected = textwrap.wrap(paragraph, width=width, initial_indent=indent,
                             subsequent_indent=indent if hanging is None else hanging,
                             break_long_words=False, break_on_hyphens=False)
    assert wrap(paragraph, width, indent, hanging).splitlines() == expected
