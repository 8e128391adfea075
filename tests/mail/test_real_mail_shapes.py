"""Issue 12, items 4 and 5: quoting, signing and body parts as real clients produce them."""

from __future__ import annotations

from email.message import EmailMessage

from pbem.core.orders import split_orders
from pbem.mail.envelope import parse_mail
from pbem.mail.flowed import unwrap
from pbem.mail.replytext import strip_reply

ORDERS = "SIGNON fra ratio-demo s3cret\nFRA I BUILD TROOP Q2 AT Paris\nSIGNOFF"
HEAD = ("From: Jean Dupont <jean@example.fr>\r\nTo: gm@pbem.test\r\nSubject: Re: tour 3\r\n"
        "Date: Mon, 4 May 2026 11:14:01 +0200\r\nMessage-ID: <a1@example.fr>\r\nMIME-Version: 1.0\r\n")


def raw(content_type: str, body: str, *, cte: str = "7bit") -> bytes:
    return (HEAD + f"Content-Type: {content_type}\r\nContent-Transfer-Encoding: {cte}\r\n\r\n"
            + body.replace("\n", "\r\n")).encode()


# 4. quoted replies and signed mail

def test_an_unquoted_attribution_ends_the_new_text() -> None:
    """Webmail (Outlook.com "plain text" replies, some Yahoo) quotes without `>`."""
    text = (ORDERS.replace("\nSIGNOFF", "") + "\n\nOn Mon, May 4, 2026 at 9:00 AM Pbem GM <gm@pbem.test> wrote:\n"
            "Your report for turn 3\nSIGNON fra ratio-demo <token>\nFRA I BUILD TROOP Q9 AT Lyon\n")
    assert strip_reply(text) == "SIGNON fra ratio-demo s3cret\nFRA I BUILD TROOP Q2 AT Paris"


def test_a_french_attribution_wrapped_over_two_lines() -> None:
    """Gmail wraps its attribution at 78 columns: `a` and `écrit :` land on two lines."""
    text = (ORDERS + "\n\nLe lun. 4 mai 2026 à 09:00, Pbem Maître du jeu <gm@pbem.test> a\nécrit :\n\n"
            "> Votre rapport\n> SIGNON fra ratio-demo <token>\n")
    assert strip_reply(text) == ORDERS
    wrapped = ("SIGNON fra ratio-demo s3cret\nFRA I BUILD TROOP Q2 AT Paris\n\nLe lun. 4 mai 2026 à 09:00, "
               "Pbem Maître du jeu <gm@pbem.test> a\nécrit :\n> FRA I BUILD TROOP Q9 AT Lyon\n")
    assert strip_reply(wrapped) == "SIGNON fra ratio-demo s3cret\nFRA I BUILD TROOP Q2 AT Paris"


CLEARSIGNED = """-----BEGIN PGP SIGNED MESSAGE-----
Hash: SHA512

Bonjour,

SIGNON fra ratio-demo s3cret
FRA I BUILD TROOP Q2 AT Paris
- -- a dash-escaped comment line
SIGNOFF
-----BEGIN PGP SIGNATURE-----

iHUEARYKAB0WIQTg8Ck5kQd3H1tAxA6kTQx5Vw7GBQJmNn0TAAoJEKRNDHlXDsYF
=Qy3b
-----END PGP SIGNATURE-----
"""


def test_a_clear_signed_mail_is_read_without_its_armor() -> None:
    text = parse_mail(raw("text/plain; charset=UTF-8", CLEARSIGNED)).text
    assert text == "Bonjour,\n\nSIGNON fra ratio-demo s3cret\nFRA I BUILD TROOP Q2 AT Paris\n-- a dash-escaped comment line\nSIGNOFF"
    assert split_orders(text).orders == [(4, "FRA I BUILD TROOP Q2 AT Paris"), (5, "-- a dash-escaped comment line")]


def test_pgp_mime_signed_mail_reads_the_signed_part_and_ignores_the_signature() -> None:
    body = ('--sig\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\n'
            + ORDERS + "\n\n--sig\nContent-Type: application/pgp-signature; name=\"signature.asc\"\n"
            "Content-Description: OpenPGP digital signature\nContent-Disposition: attachment; filename=\"signature.asc\"\n\n"
            "-----BEGIN PGP SIGNATURE-----\n\niHUEARYKAB0WIQTg8Ck5\n=Qy3b\n-----END PGP SIGNATURE-----\n\n--sig--\n")
    envelope = parse_mail(raw('multipart/signed; micalg=pgp-sha512; protocol="application/pgp-signature"; '
                              'boundary="sig"', body))
    assert envelope.text == ORDERS


def test_a_closing_line_ends_the_orders_when_there_is_no_signoff() -> None:
    assert strip_reply("SIGNON a b c\nBID 3\n\nCheers,\nAnn\nMobile: +33 6 12 34 56 78") == "SIGNON a b c\nBID 3"
    assert strip_reply("Thanks!\n\nSIGNON a b c\nBID 3") == "Thanks!\n\nSIGNON a b c\nBID 3"  # before SIGNON: prose
    press = "SIGNON a b c\nPRESS TO ENG\nDear cousin,\nThanks!\nENDPRESS\nBID 3\nSIGNOFF"
    assert strip_reply(press) == press


# 5. body parts

def alternative(plain: str, html: str, sender: str = "Ann <ann@example.org>") -> bytes:
    """A text/plain and text/html mail, as most clients send."""
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = sender, "gm@pbem.test", "orders"
    message["Message-ID"] = "<alt@example.org>"
    message.set_content(plain)
    message.add_alternative(html, subtype="html")
    return message.as_bytes()


def test_an_empty_plain_part_beside_html_reads_the_html() -> None:
    html = "<div dir=\"ltr\">" + "".join(f"<div>{line}</div>" for line in ORDERS.splitlines()) + "</div>"
    assert parse_mail(alternative("\n", html)).text == ORDERS


LONG = "POLICY FOR FRA intercept WHEN area=Paris AND strength>=3 DO INTERCEPT WITH ALL TROOPS FROM Lyon"


def test_a_hard_wrapped_plain_part_beside_html_reads_the_html() -> None:
    plain = f"SIGNON fra ratio-demo s3cret\n{LONG[:75]}\n{LONG[76:]}\nSIGNOFF\n"
    html = f"<div>SIGNON fra ratio-demo s3cret</div><div>{LONG}</div><div>SIGNOFF</div>"
    assert parse_mail(alternative(plain, html)).text == f"SIGNON fra ratio-demo s3cret\n{LONG}\nSIGNOFF"


def test_a_hard_wrap_in_plain_text_alone_is_undone() -> None:
    cut = LONG.rfind(" ", 0, 77)
    text = f"SIGNON fra ratio-demo s3cret\n{LONG[:cut]}\n{LONG[cut + 1:]}\nFRA I BUILD TROOP Q2 AT Paris\nSIGNOFF"
    assert parse_mail(raw("text/plain; charset=us-ascii", text)).text == \
        f"SIGNON fra ratio-demo s3cret\n{LONG}\nFRA I BUILD TROOP Q2 AT Paris\nSIGNOFF"
    two_orders = "FRA I MOVE TROOP FROM Paris TO Lyon THEN TO Marseille THEN TO Toulon PLEASE\nFRA II HOLD"
    assert unwrap(two_orders) == two_orders  # the next order starts with the same word: not a continuation


def test_an_order_after_a_long_comment_is_never_joined_into_it() -> None:
    comment = "# the sealed auction: I bid high, since the game order breaks every tie later"
    assert 60 <= len(comment) <= 78
    text = f"SIGNON fra ratio-demo s3cret\n{comment}\nBID 3\nSIGNOFF"
    assert parse_mail(raw("text/plain; charset=us-ascii", text)).text == text


def test_a_txt_attachment_of_orders_is_read() -> None:
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = "Ann <ann@example.org>", "gm@pbem.test", "orders"
    message.set_content("My orders are attached.\n")
    message.add_attachment(ORDERS.encode(), maintype="text", subtype="plain", filename="../../etc/orders.txt")
    text = parse_mail(message.as_bytes()).text
    assert text.endswith(ORDERS) and split_orders(text).orders == [(4, "FRA I BUILD TROOP Q2 AT Paris")]
    only_the_file = (HEAD + "Content-Type: text/plain\r\nContent-Disposition: attachment; filename=orders.txt\r\n\r\n"
                     + ORDERS).encode()
    assert parse_mail(only_the_file).text == ORDERS  # read once, not as body and again as attachment


def test_text_after_a_json_attachment_is_not_more_orders() -> None:
    from pbem.core.jsonorders import orders_from_json
    from pbem.core.orders import with_json_orders

    mail_text = "SIGNON fra ratio-demo s3cret\nsee attached\nBest, Jean"
    text = with_json_orders(orders_from_json(["FRA I BUILD TROOP Q2 AT Paris"]), mail_text)
    assert split_orders(text).orders == [(2, "FRA I BUILD TROOP Q2 AT Paris")]


def test_utf8_labelled_ascii_falls_back_to_utf8() -> None:
    body = "SIGNON fra ratio-demo s3cret\nFRA I BUILD TROOP Q2 AT Orléans\nSIGNOFF"
    text = parse_mail(raw("text/plain; charset=us-ascii", body, cte="8bit")).text
    assert text == body and "\ufffd" not in text
    latin = (HEAD + "Content-Type: text/plain; charset=utf-8\r\n\r\n").encode() + "Orléans".encode("cp1252")
    assert parse_mail(latin).text == "Orléans"
