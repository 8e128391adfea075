"""A JSON attachment that cannot be read is answered with the reason, not ignored."""

from email.message import EmailMessage

from pbem.mail.envelope import parse_mail


def mail_with(attachment: bytes) -> bytes:
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = "fra@example.org", "gm@example.org", "orders"
    message["Message-ID"] = "<json-1@example.org>"
    message.set_content("SIGNON fra c1 tok\nSIGNOFF\n")
    message.add_attachment(attachment, maintype="application", subtype="json", filename="orders.json")
    return bytes(message)


def test_unreadable_json_attachment_says_why():
    envelope = parse_mail(mail_with(b'{"orders": ["BID 3",]'))
    assert envelope.json_orders is None
    assert "orders.json cannot be read" in envelope.json_problem


def test_readable_json_attachment_is_taken():
    envelope = parse_mail(mail_with(b'{"orders": ["BID 3"]}'))
    assert envelope.json_orders == {"orders": ["BID 3"]} and envelope.json_problem == ""
