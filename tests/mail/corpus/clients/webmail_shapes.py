"""Writes the webmail and phone-shaped corpus mails: headers, MIME structure, encodings and
quoting as Gmail, Yahoo, Outlook (web and desktop), K-9 / Thunderbird for Android and iOS Mail
send them (these clients cannot be run here), plus the hostile nested mail. Usage:
`python tests/mail/corpus/clients/webmail_shapes.py`."""
import base64, quopri
from pathlib import Path
OUT = Path(__file__).resolve().parent.parent

def w(name, raw, expected, json=None):
    (OUT / f"{name}.eml").write_bytes(raw.encode() if isinstance(raw, str) else raw)
    (OUT / f"{name}.expected.txt").write_text(expected + "\n", encoding="utf-8")
    if json: (OUT / f"{name}.expected.json").write_text(json + "\n")

def qp(text): return quopri.encodestring(text.encode()).decode()
def b64(text): return "\n".join(base64.encodebytes(text.encode()).decode().split("\n"))

O = "SIGNON fra ratio-demo s3cret\nFRA I BUILD TROOP Q2 AT Paris\nSIGNOFF"

# Gmail web (French UI): plain part wraps the attribution at 78 columns ("a" / "écrit :")
plain = ("Bonjour,\n\n" + O + "\n\nLe lun. 4 mai 2026 à 09:00, Pbem Maître du jeu <gm@pbem.test> a\nécrit :\n\n"
         "> Rapport du tour 3 pour FRA\n> SIGNON fra ratio-demo <jeton>\n> FRA I BUILD TROOP Q9 AT Lyon\n>\n")
html = ('<div dir="ltr"><div>Bonjour,</div><div><br></div><div>SIGNON fra ratio-demo s3cret</div><div>FRA I BUILD TROOP Q2 AT Paris</div>'
        '<div>SIGNOFF</div></div><br><div class="gmail_quote"><div dir="ltr" class="gmail_attr">Le lun. 4 mai 2026 à 09:00, Pbem Maître du jeu &lt;<a href="mailto:gm@pbem.test">gm@pbem.test</a>&gt; a écrit&nbsp;:<br></div>'
        '<blockquote class="gmail_quote" style="margin:0px 0px 0px 0.8ex;border-left:1px solid rgb(204,204,204);padding-left:1ex">'
        'Rapport du tour 3 pour FRA<br>SIGNON fra ratio-demo &lt;jeton&gt;<br>FRA I BUILD TROOP Q9 AT Lyon<br></blockquote></div>\n')
gmail_fr = f"""MIME-Version: 1.0
Date: Mon, 4 May 2026 11:02:17 +0200
References: <pbem.5f1c9a@pbem.test>
In-Reply-To: <pbem.5f1c9a@pbem.test>
Message-ID: <CAHx4Lq8vJ2mWk3dT1s0pZr8Qe5nYh7uF6oGxB9aK2cD4eF5gHQ@mail.gmail.com>
Subject: Re: [ratio-demo] Tour 3 : rapport pour FRA
From: Jean Dupont <jean.dupont@gmail.example>
To: Pbem =?UTF-8?Q?Ma=C3=AEtre_du_jeu?= <gm@pbem.test>
Content-Type: multipart/alternative; boundary="000000000000a1b2c3d4e5f60718"

--000000000000a1b2c3d4e5f60718
Content-Type: text/plain; charset="UTF-8"
Content-Transfer-Encoding: quoted-printable

{qp(plain)}
--000000000000a1b2c3d4e5f60718
Content-Type: text/html; charset="UTF-8"
Content-Transfer-Encoding: quoted-printable

{qp(html)}
--000000000000a1b2c3d4e5f60718--
"""
w("gmail_fr_wrapped_attribution", gmail_fr, "Bonjour,\n\n" + O)
trace = ("Delivered-To: gm@pbem.test\nReceived: by 2002:a05:6a10:9e0c:b0:5b3:1c2e:7d4f with SMTP id k12csp1234567pxb;\n"
         "        Mon, 4 May 2026 02:02:31 -0700 (PDT)\nX-Forwarded-To: gm@pbem.test\nX-Forwarded-For: orders@pbem.test gm@pbem.test\n"
         "ARC-Seal: i=1; a=rsa-sha256; t=1777885351; cv=none; d=google.com; s=arc-20240605;\n        b=Qm9ndXM=\n"
         "Return-Path: <jean.dupont@gmail.example>\n")
w("gmail_fr_wrapped_attribution_redelivered", trace + gmail_fr, "Bonjour,\n\n" + O)

# Yahoo Mail web: the plain alternative carries the quoted report WITHOUT `>`, and so does the HTML
report = "Turn 3 report for FRA\nSIGNON fra ratio-demo <token>\nFRA I BUILD TROOP Q9 AT Lyon"
plain = (O + "\n\n    On Monday, May 4, 2026 at 09:00:00 AM GMT+2, Pbem GM <gm@pbem.test> wrote:  \n \n \n" + report + "\n")
html = ('<html><head></head><body><div class="ydp3c1b2a9yahoo-style-wrap" style="font-family:Helvetica Neue, Helvetica, Arial, sans-serif;font-size:13px;">'
        '<div dir="ltr" data-setdir="false">SIGNON fra ratio-demo s3cret</div><div dir="ltr" data-setdir="false">FRA I BUILD TROOP Q2 AT Paris</div>'
        '<div dir="ltr" data-setdir="false">SIGNOFF</div><div><br></div></div><div id="ydp7f0yahoo_quoted_1234567890" class="ydp7f0yahoo_quoted">'
        '<div style="font-family:\'Helvetica Neue\', Helvetica, Arial, sans-serif;font-size:13px;color:#26282a;"><div>On Monday, May 4, 2026 at 09:00:00 AM GMT+2, Pbem GM &lt;gm@pbem.test&gt; wrote:</div>'
        '<div><br></div><div><br></div><div><div dir="ltr">Turn 3 report for FRA<br>SIGNON fra ratio-demo &lt;token&gt;<br>FRA I BUILD TROOP Q9 AT Lyon</div></div></div></div></body></html>\n')
w("yahoo_unquoted_attribution", f"""Date: Mon, 4 May 2026 07:05:41 +0000 (UTC)
From: Ann Example <ann_example@yahoo.example>
To: Pbem GM <gm@pbem.test>
Message-ID: <1234567890.987654.1777878341234@mail.yahoo.example>
In-Reply-To: <pbem.5f1c9a@pbem.test>
References: <pbem.5f1c9a@pbem.test>
Subject: Re: [ratio-demo] Turn 3 report for FRA
MIME-Version: 1.0
Content-Type: multipart/alternative;
\tboundary="----=_Part_4321_1357924680.1777878341233"
X-Mailer: WebService/1.1.22233 YMailNorrin

------=_Part_4321_1357924680.1777878341233
Content-Type: text/plain; charset=UTF-8
Content-Transfer-Encoding: 7bit

{plain}
------=_Part_4321_1357924680.1777878341233
Content-Type: text/html; charset=UTF-8
Content-Transfer-Encoding: 7bit

{html}
------=_Part_4321_1357924680.1777878341233--
""", O)

# Webmail composing rich text that sends an empty text/plain alternative beside the real HTML
html = ('<html><body><div style="font-family: Calibri, Arial, Helvetica, sans-serif; font-size: 12pt;">Hello GM,</div>'
        '<div><br></div><div>SIGNON fra ratio-demo s3cret</div><div>FRA I BUILD TROOP Q2 AT Paris</div><div>SIGNOFF</div></body></html>\n')
w("webmail_empty_plain_beside_html", f"""From: Ann Example <ann@webmail.example>
To: "gm@pbem.test" <gm@pbem.test>
Subject: orders turn 3
Date: Mon, 4 May 2026 09:20:11 +0000
Message-ID: <AM9PR07MB7123A1B2C3D4E5F6A7B8C9D0E1F2@AM9PR07MB7123.eurprd07.prod.webmail.example>
Content-Language: en-GB
Content-Type: multipart/alternative;
\tboundary="_000_AM9PR07MB7123A1B2C3D4E5F6A7B8C9D0E1F2_"
MIME-Version: 1.0

--_000_AM9PR07MB7123A1B2C3D4E5F6A7B8C9D0E1F2_
Content-Type: text/plain; charset="us-ascii"
Content-Transfer-Encoding: quoted-printable


--_000_AM9PR07MB7123A1B2C3D4E5F6A7B8C9D0E1F2_
Content-Type: text/html; charset="us-ascii"
Content-Transfer-Encoding: quoted-printable

{qp(html)}
--_000_AM9PR07MB7123A1B2C3D4E5F6A7B8C9D0E1F2_--
""", "Hello GM,\n\n" + O)

# Outlook on the web: plain alternative hard-wrapped at 76, HTML whole; a POLICY longer than a line
LONG = "POLICY FOR FRA intercept WHEN area=Paris AND strength>=3 DO INTERCEPT WITH ALL TROOPS FROM Lyon"
cut = LONG.rfind(" ", 0, 77)
plain = f"SIGNON fra ratio-demo s3cret\n{LONG[:cut]}\n{LONG[cut+1:]}\nSIGNOFF\n"
html = ('<html><head><meta http-equiv="Content-Type" content="text/html; charset=us-ascii"><style type="text/css" style="display:none;"> P {margin-top:0;margin-bottom:0;} </style></head>'
        '<body dir="ltr"><div class="elementToProof" style="font-family: Aptos, Aptos_EmbeddedFont, Aptos_MSFontService, Calibri, Helvetica, sans-serif; font-size: 12pt; color: rgb(0, 0, 0);">'
        f'SIGNON fra ratio-demo s3cret</div><div class="elementToProof">{LONG.replace(">", "&gt;")}</div><div class="elementToProof">SIGNOFF</div></body></html>\n')
w("outlook_web_hard_wrapped_plain", f"""From: Ann Example <ann@outlook.example>
To: "gm@pbem.test" <gm@pbem.test>
Subject: policies
Thread-Topic: policies
Thread-Index: AQHasEzY1Lr1pP2xS0y6mV8YV8Yw==
Date: Mon, 4 May 2026 09:31:54 +0000
Message-ID: <DB9P195MB1234ABCD5678EF90AB12CD34EF56@DB9P195MB1234.EURP195.PROD.OUTLOOK.COM>
Accept-Language: en-GB, en-US
Content-Language: en-GB
Content-Type: multipart/alternative;
\tboundary="_000_DB9P195MB1234ABCD5678EF90AB12CD34EF56DB9P195MB1234EURP_"
MIME-Version: 1.0

--_000_DB9P195MB1234ABCD5678EF90AB12CD34EF56DB9P195MB1234EURP_
Content-Type: text/plain; charset="us-ascii"
Content-Transfer-Encoding: quoted-printable

{qp(plain)}
--_000_DB9P195MB1234ABCD5678EF90AB12CD34EF56DB9P195MB1234EURP_
Content-Type: text/html; charset="us-ascii"
Content-Transfer-Encoding: quoted-printable

{qp(html)}
--_000_DB9P195MB1234ABCD5678EF90AB12CD34EF56DB9P195MB1234EURP_--
""", f"SIGNON fra ratio-demo s3cret\n{LONG}\nSIGNOFF")

# Gmail in plain-text mode: text/plain only, hard-wrapped at 78
plain = f"SIGNON fra ratio-demo s3cret\n{LONG[:cut]}\n{LONG[cut+1:]}\nFRA I BUILD TROOP Q2 AT Paris\nSIGNOFF\n"
w("gmail_plain_text_mode_hard_wrapped", f"""MIME-Version: 1.0
Date: Mon, 4 May 2026 11:40:02 +0200
Message-ID: <CAHx4Lq9tP0aQ1wE2rT3yU4iO5pA6sD7fG8hJ9kL0zX1cV2bN3m@mail.gmail.com>
Subject: policies for turn 4
From: Jean Dupont <jean.dupont@gmail.example>
To: gm@pbem.test
Content-Type: text/plain; charset="UTF-8"

{plain}""", f"SIGNON fra ratio-demo s3cret\n{LONG}\nFRA I BUILD TROOP Q2 AT Paris\nSIGNOFF")

# Outlook desktop: a signature with no `-- ` and no SIGNOFF
plain = ("SIGNON fra ratio-demo s3cret\r\nFRA I BUILD TROOP Q2 AT Paris\r\n\r\nBest regards,\r\n\r\nJohn Smith\r\n"
         "Senior Analyst | Contoso Ltd.\r\nT: +44 20 7946 0958\r\n\r\n")
html = ('<html xmlns:o="urn:schemas-microsoft-com:office:office"><head><meta name=Generator content="Microsoft Word 15 (filtered medium)"></head>'
        '<body lang=EN-GB link="#0563C1" vlink="#954F72"><div class=WordSection1><p class=MsoNormal>SIGNON fra ratio-demo s3cret<o:p></o:p></p>'
        '<p class=MsoNormal>FRA I BUILD TROOP Q2 AT Paris<o:p></o:p></p><p class=MsoNormal><o:p>&nbsp;</o:p></p><p class=MsoNormal>Best regards,<o:p></o:p></p>'
        '<p class=MsoNormal><o:p>&nbsp;</o:p></p><p class=MsoNormal><b>John Smith</b><o:p></o:p></p><p class=MsoNormal>Senior Analyst | Contoso Ltd.<o:p></o:p></p>'
        '<p class=MsoNormal>T: +44 20 7946 0958<o:p></o:p></p></div></body></html>\n')
w("outlook_desktop_signature_without_dashes", f"""From: John Smith <john.smith@contoso.example>
To: "gm@pbem.test" <gm@pbem.test>
Subject: RE: [ratio-demo] Turn 3 report for FRA
Thread-Topic: [ratio-demo] Turn 3 report for FRA
Thread-Index: AdqwTq1xYz2AbCdEfGhIjKlMnOpQrA==
Date: Mon, 4 May 2026 09:45:12 +0000
Message-ID: <LO2P265MB5678FEDC4321BA09876543210ABC@LO2P265MB5678.GBRP265.PROD.OUTLOOK.COM>
Accept-Language: en-GB, en-US
Content-Language: en-US
X-MS-Has-Attach:
X-MS-TNEF-Correlator:
X-Mailer: Microsoft Outlook 16.0
Content-Type: multipart/alternative;
\tboundary="_000_LO2P265MB5678FEDC4321BA09876543210ABCLO2P265MB5678GBRP_"
MIME-Version: 1.0

--_000_LO2P265MB5678FEDC4321BA09876543210ABCLO2P265MB5678GBRP_
Content-Type: text/plain; charset="us-ascii"
Content-Transfer-Encoding: quoted-printable

{qp(plain)}
--_000_LO2P265MB5678FEDC4321BA09876543210ABCLO2P265MB5678GBRP_
Content-Type: text/html; charset="us-ascii"
Content-Transfer-Encoding: quoted-printable

{qp(html)}
--_000_LO2P265MB5678FEDC4321BA09876543210ABCLO2P265MB5678GBRP_--
""", "SIGNON fra ratio-demo s3cret\nFRA I BUILD TROOP Q2 AT Paris")

# K-9 Mail (Android): German attribution, quoted report below, base64 UTF-8
plain = ("SIGNON fra ratio-demo s3cret\nFRA I BUILD TROOP Q2 AT Paris\nREADY\nSIGNOFF\n\n"
         "Am 4. Mai 2026 09:00:00 MESZ schrieb Pbem GM <gm@pbem.test>:\n>Turn 3 report for FRA\n>SIGNON fra ratio-demo <token>\n\n-- \nDiese Nachricht wurde von meinem Android-Gerät mit K-9 Mail gesendet.\n")
w("k9_android_german_attribution", f"""MIME-Version: 1.0
Date: Mon, 04 May 2026 09:12:44 +0200
User-Agent: K-9 Mail for Android
In-Reply-To: <pbem.5f1c9a@pbem.test>
References: <pbem.5f1c9a@pbem.test>
Content-Type: text/plain;
 charset=UTF-8
Content-Transfer-Encoding: base64
Subject: Re: [ratio-demo] Turn 3 report for FRA
To: Pbem GM <gm@pbem.test>
From: Kurt <kurt@web.example>
Message-ID: <6F2A1C3B-9E8D-4A7B-B5C4-D3E2F1A0B9C8@web.example>

{b64(plain)}""", "SIGNON fra ratio-demo s3cret\nFRA I BUILD TROOP Q2 AT Paris\nREADY\nSIGNOFF")

# Thunderbird for Android: bottom-posted under the quoted report, format=flowed
plain = ("On May 4, 2026 9:00:00 AM GMT+02:00, Pbem GM <gm@pbem.test> wrote:\n>Turn 3 report for FRA\n>SIGNON fra ratio-demo <token>\n\n"
         "Here you go:\n\nSIGNON fra ratio-demo s3cret\nFRA II MOVE TROOP FROM Paris TO Lyon \nTHEN TO Dijon\nSIGNOFF\n")
w("thunderbird_android_bottom_posted", f"""MIME-Version: 1.0
Date: Mon, 04 May 2026 09:14:02 +0200
User-Agent: Thunderbird for Android
In-Reply-To: <pbem.5f1c9a@pbem.test>
References: <pbem.5f1c9a@pbem.test>
Content-Type: text/plain; charset=UTF-8; format=flowed
Content-Transfer-Encoding: 8bit
Subject: Re: [ratio-demo] Turn 3 report for FRA
To: Pbem GM <gm@pbem.test>
From: Ann Example <ann@example.org>
Message-ID: <1A2B3C4D-5E6F-4A7B-8C9D-0E1F2A3B4C5D@example.org>

{plain}""", "Here you go:\n\nSIGNON fra ratio-demo s3cret\nFRA II MOVE TROOP FROM Paris TO Lyon THEN TO Dijon\nSIGNOFF")

# Apple Mail on iOS: two seats in one mail, "Sent from my iPhone", quoted attribution
plain = ("SIGNON fra ratio-demo s3cret\nFRA I BUILD TROOP Q2 AT Paris\nSIGNOFF\nSIGNON spa ratio-demo t0ken\nSPA I BUILD TROOP Q1 AT Madrid\nSIGNOFF\n\n"
         "Sent from my iPhone\n\n> On 4 May 2026, at 09:00, Pbem GM <gm@pbem.test> wrote:\n> \n> Turn 3 report for FRA\n")
html = ('<html><head><meta http-equiv="content-type" content="text/html; charset=utf-8"></head><body dir="auto">'
        '<div dir="ltr">SIGNON fra ratio-demo s3cret</div><div dir="ltr">FRA I BUILD TROOP Q2 AT Paris</div><div dir="ltr">SIGNOFF</div>'
        '<div dir="ltr">SIGNON spa ratio-demo t0ken</div><div dir="ltr">SPA I BUILD TROOP Q1 AT Madrid</div><div dir="ltr">SIGNOFF<br><br>'
        '<div dir="ltr">Sent from my iPhone</div><div dir="ltr"><br><blockquote type="cite">On 4 May 2026, at 09:00, Pbem GM &lt;gm@pbem.test&gt; wrote:<br><br></blockquote></div>'
        '<blockquote type="cite"><div dir="ltr">Turn 3 report for FRA</div></blockquote></div></body></html>\n')
w("ios_mail_two_blocks", f"""Content-Type: multipart/alternative; boundary=Apple-Mail-3C1A2B4D-5E6F-4071-8293-A4B5C6D7E8F9
Content-Transfer-Encoding: 7bit
From: Ann Example <ann@example.org>
Mime-Version: 1.0 (1.0)
Date: Mon, 4 May 2026 09:22:31 +0200
Subject: Re: [ratio-demo] Turn 3 report for FRA
Message-Id: <8E7D6C5B-4A39-4281-9F0E-1D2C3B4A5968@example.org>
References: <pbem.5f1c9a@pbem.test>
In-Reply-To: <pbem.5f1c9a@pbem.test>
To: Pbem GM <gm@pbem.test>
X-Mailer: iPhone Mail (21F90)


--Apple-Mail-3C1A2B4D-5E6F-4071-8293-A4B5C6D7E8F9
Content-Type: text/plain;
\tcharset=utf-8
Content-Transfer-Encoding: quoted-printable

{qp(plain)}
--Apple-Mail-3C1A2B4D-5E6F-4071-8293-A4B5C6D7E8F9
Content-Type: text/html;
\tcharset=utf-8
Content-Transfer-Encoding: quoted-printable

{qp(html)}
--Apple-Mail-3C1A2B4D-5E6F-4071-8293-A4B5C6D7E8F9--
""", "SIGNON fra ratio-demo s3cret\nFRA I BUILD TROOP Q2 AT Paris\nSIGNOFF\nSIGNON spa ratio-demo t0ken\nSPA I BUILD TROOP Q1 AT Madrid\nSIGNOFF")

# Gmail web: a JSON attachment without SIGNON, the SIGNON and a signature in the body
js = '{"orders": ["FRA I BUILD TROOP Q2 AT Paris", "FRA II MOVE TROOP FROM Paris TO Lyon"]}'
w("gmail_json_attachment_with_signature", f"""MIME-Version: 1.0
Date: Mon, 4 May 2026 11:50:40 +0200
Message-ID: <CAHx4Lq7mN8bV9cX0zL1kJ2hG3fD4sA5pO6iU7yT8rE9wQ0aS1d@mail.gmail.com>
Subject: orders (generated)
From: Jean Dupont <jean.dupont@gmail.example>
To: gm@pbem.test
Content-Type: multipart/mixed; boundary="000000000000f1e2d3c4b5a69788"

--000000000000f1e2d3c4b5a69788
Content-Type: multipart/alternative; boundary="000000000000f1e2d3c4b5a69786"

--000000000000f1e2d3c4b5a69786
Content-Type: text/plain; charset="UTF-8"

SIGNON fra ratio-demo s3cret

-- 
Jean Dupont
FRA III BUILD TROOP Q9 AT Lyon

--000000000000f1e2d3c4b5a69786
Content-Type: text/html; charset="UTF-8"

<div dir="ltr">SIGNON fra ratio-demo s3cret<br clear="all"><div><br></div><span class="gmail_signature_prefix">-- </span><br><div dir="ltr" class="gmail_signature">Jean Dupont<br>FRA III BUILD TROOP Q9 AT Lyon</div></div>

--000000000000f1e2d3c4b5a69786--
--000000000000f1e2d3c4b5a69788
Content-Type: application/json; name="orders.json"
Content-Disposition: attachment; filename="orders.json"
Content-Transfer-Encoding: base64
X-Attachment-Id: f_lx2k3j4h0
Content-ID: <f_lx2k3j4h0>

{b64(js)}
--000000000000f1e2d3c4b5a69788--
""", "SIGNON fra ratio-demo s3cret", json=js)

# A multipart nested 1,000 deep (a hostile or broken generator): its sender still gets an answer
head = ("From: Deep <deep@example.org>\nTo: gm@pbem.test\nSubject: deep\nMessage-ID: <deep-1000@example.org>\nMIME-Version: 1.0\n")
opening = "".join(f'Content-Type: multipart/mixed; boundary="b{i}"\n\n--b{i}\n' for i in range(1000))
closing = "".join(f"--b{i}--\n" for i in reversed(range(1000)))
w("hostile_multipart_1000_deep", head + opening + "Content-Type: text/plain\n\n" + O + "\n" + closing, "")
