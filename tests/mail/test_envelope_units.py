"""Envelope parsing rules one by one, and the promise that no input makes it raise."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.core.orders import signon_blocks, split_orders
from pbem.mail.envelope import auto_mail_reason, parse_mail
from pbem.mail.flowed import unflow
from pbem.mail.htmltext import read_html
from pbem.mail.replytext import strip_reply

ORDERS = "SIGNON fra ratio-demo s3cret\nFRA I BUILD TROOP Q2 AT Paris\nSIGNOFF"


def mail(headers: str, body: str) -> bytes:
    return (headers.strip() + "\n\n" + body).encode()


def test_signoff_ends_the_orders() -> None:
    assert strip_reply(ORDERS + "\nFRA II MOVE TROOP FROM Paris TO Lyon\n") == ORDERS


def test_signature_delimiter_and_phone_signatures_end_the_text() -> None:
    assert strip_reply("SIGNON a b c\nX\n-- \nJean\nFRA I BUILD") == "SIGNON a b c\nX"
    assert strip_reply("SIGNON a b c\nX\n\nSent from my iPhone\nFRA I BUILD") == "SIGNON a b c\nX"
    assert strip_reply("SIGNON a b c\n\nVon meinem iPhone gesendet") == "SIGNON a b c"


def test_quotes_are_dropped_wherever_they_are() -> None:
    text = "> old line\nSIGNON a b c\n>> older\nORDER 1\n> quoted ORDER 2\nORDER 3"
    assert strip_reply(text) == "SIGNON a b c\nORDER 1\nORDER 3"


def test_attributions_in_several_languages() -> None:
    for line in ("On Mon, 3 Mar 2025 at 10:00, GM <gm@pbem.test> wrote:", "Le 3 mars 2025 à 10:00, GM a écrit :",
                 "El lun, 3 mar 2025 a las 10:00, GM escribió:", "Il giorno lun 3 mar 2025, GM ha scritto:",
                 "Am 03.03.2025 um 10:00 schrieb GM <gm@pbem.test>:", "Op ma 3 mrt 2025 schreef GM:"):
        assert strip_reply(f"ORDER 1\n\n{line}\n> report\n> more") == "ORDER 1", line


def test_a_player_line_ending_in_wrote_is_kept() -> None:
    assert strip_reply("PRESS TO ENG this is what I wrote:\nENDPRESS") == "PRESS TO ENG this is what I wrote:\nENDPRESS"


def test_outlook_header_block_and_original_message() -> None:
    block = "ORDER 1\n\nFrom: GM <gm@pbem.test>\nSent: Monday, March 3, 2025 10:00\nTo: x\n\nSIGNON old"
    assert strip_reply(block) == "ORDER 1"
    assert strip_reply("ORDER 1\n-----Ursprüngliche Nachricht-----\nVon: GM\nORDER 9") == "ORDER 1"
    assert strip_reply("From: here I start\nORDER 1") == "From: here I start\nORDER 1"


def test_format_flowed() -> None:
    assert unflow("FRA MOVE FROM Paris \nTO Lyon\nNEXT") == "FRA MOVE FROM Paris TO Lyon\nNEXT"
    assert unflow("FRA MOVE FROM Pa \nris\n", delsp=True) == "FRA MOVE FROM Paris\n"
    assert unflow("-- \nsig") == "-- \nsig"
    assert unflow("> quoted \n> more\nown") == "> quoted more\nown"
    assert unflow(" From here (space-stuffed)") == "From here (space-stuffed)"


def test_html_blocks_breaks_and_blockquotes() -> None:
    html = ("<html><head><style>p{x:y}</style></head><body><div>SIGNON a b c</div><div>ORDER&nbsp;1<br>ORDER 2</div>"
            "<p>&nbsp;</p><blockquote><div>old</div></blockquote><script>var x</script></body></html>")
    assert read_html(html).text == "SIGNON a b c\nORDER 1\nORDER 2\n\n> old"
    assert read_html("<pre>A  1\nB  2</pre>").text == "A  1\nB  2"


def test_html_table_cells_stay_apart() -> None:
    """Issue 25 item 10: an order typed into a table's cells reads as the line it is."""
    html = ("<table><tr><td>SIGNON</td><td>fra</td><td>c1</td><td>tok</td></tr>\n"
            "<tr><td>FRA</td><td>I</td><td>MOVE</td></tr>\n<tr><th>a</th> <th><b>b</b></th></tr></table>")
    assert read_html(html).text == "SIGNON fra c1 tok\nFRA I MOVE\na b"


def test_html_only_mail_and_unknown_charset() -> None:
    body = "<div>" + ORDERS.replace("\n", "<br>") + "</div>"
    html = mail("From: a@b.c\nContent-Type: text/html; charset=utf-8", body)
    assert parse_mail(html).text == ORDERS
    odd = mail("From: a@b.c\nContent-Type: text/plain; charset=x-unknown-42", ORDERS)
    assert parse_mail(odd).text == ORDERS


def test_missing_message_id_gets_a_stable_synthetic_one() -> None:
    raw = mail("From: a@b.c", ORDERS)
    assert parse_mail(raw).message_id == parse_mail(raw).message_id
    assert parse_mail(raw).message_id.endswith("@pbem.invalid>")


def test_invalid_json_attachment_is_ignored() -> None:
    raw = mail('From: a@b.c\nContent-Type: multipart/mixed; boundary="B"',
               "--B\nContent-Type: text/plain\n\nSIGNON a b c\n--B\nContent-Type: application/json\n"
               'Content-Disposition: attachment; filename="o.json"\n\n{not json\n--B--\n')
    envelope = parse_mail(raw)
    assert envelope.text == "SIGNON a b c" and envelope.json_orders is None


def test_oversize_mail_keeps_headers_not_text() -> None:
    raw = mail("From: Big <big@x.org>\nSubject: huge\nMessage-ID: <big@x>", "A" * 5000)
    envelope = parse_mail(raw, max_bytes=1000)
    got = (envelope.sender, envelope.message_id, envelope.subject, envelope.text)
    assert got == ("big@x.org", "<big@x>", "huge", "")


def test_auto_mail_classification() -> None:
    def reason(headers: str) -> str | None:
        return auto_mail_reason(mail(headers, "x"), own_addresses=("gm@pbem.test",))

    assert reason("From: a@b.c") is None
    assert reason("From: a@b.c\nAuto-Submitted: no") is None
    assert reason("From: GM <GM@pbem.test>") == "own-address"
    assert reason("From: a@b.c\nAuto-Submitted: auto-replied") == "auto-submitted"
    assert reason("From: a@b.c\nPrecedence: list") == "precedence"
    assert reason("From: a@b.c\nList-Id: <games.lists.example>") == "list"
    assert reason("From: postmaster@b.c") == "bounce"
    assert reason("From: a@b.c\nReturn-Path: <>") == "bounce"
    assert reason("From: a@b.c\nX-Autoreply: yes") == "auto-reply"
    assert reason("Subject: no sender") == "no-sender"


CORPUS_BYTES = [p.read_bytes() for p in sorted((Path(__file__).parent / "corpus").glob("*.eml"))]


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=3000))
def test_any_bytes_give_an_envelope(raw: bytes) -> None:
    envelope = parse_mail(raw)
    assert envelope.message_id and envelope.raw == raw
    auto_mail_reason(raw)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(CORPUS_BYTES), st.integers(min_value=0), st.integers(min_value=0, max_value=200),
       st.binary(max_size=40))
def test_damaged_real_mail_gives_an_envelope(raw: bytes, at: int, cut: int, junk: bytes) -> None:
    at %= len(raw)
    damaged = raw[:at] + junk + raw[at + cut:]
    assert parse_mail(damaged).message_id
    auto_mail_reason(damaged)


def test_a_letter_keeps_its_thanks_and_signoff_and_the_orders_after_it_are_read() -> None:
    # No SIGNOFF closes the orders: the one inside the letter is the letter's, not the mail's.
    body = ("SIGNON fra ratio-demo s3cret\nPRESS TO ALL\nDear cousins,\nThanks!\nSIGNOFF from your king\n"
            "ENDPRESS\nBID 3\nCheers,\nJean")
    kept = strip_reply(body)
    assert kept == "\n".join(body.split("\n")[:7])
    read = split_orders(signon_blocks(kept)[0].text)
    assert [p.text for p in read.press] == ["Dear cousins,\nThanks!\nSIGNOFF from your king"]
    assert [line for _, line in read.orders] == ["BID 3"]
    assert read.problems == []


def test_press_without_a_recipient_opens_no_letter_and_signoff_still_ends_the_orders() -> None:
    body = "SIGNON fra ratio-demo s3cret\nPRESS\nSIGNOFF\nBID 3"
    read = split_orders(signon_blocks(body)[0].text)
    assert read.press == [] and read.orders == []
    assert [reason for _, _, reason in read.problems] == ["PRESS needs a recipient: PRESS TO <power|ALL>"]
