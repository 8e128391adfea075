#!/bin/bash
# Regenerates the corpus mails made by real clients (issue 12). Each client composes the mail
# non-interactively and hands it to a stand-in sendmail that writes it to a file, so the
# headers, MIME structure and encodings are the client's own. Needs (Debian 12):
#   apt-get install mutt s-nail mailutils swaks mblaze nmh emacs-nox gnupg
# Dates and Message-IDs change on each run; the expected texts do not.
# Usage: tests/mail/corpus/clients/generate.sh [OUT_DIR]   (default: the corpus directory)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=$(cd "${1:-$HERE/..}" && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
export HOME=$WORK/home GNUPGHOME=$WORK/gnupg LC_ALL=C.UTF-8
mkdir -p "$HOME/Mail" && mkdir -m 700 "$GNUPGHOME"
printf '#!/bin/sh\ncat > "$PBEM_CORPUS_OUT"\n' > "$WORK/sendmail" && chmod +x "$WORK/sendmail"
ORDERS='SIGNON fra ratio-demo s3cret
FRA I BUILD TROOP Q2 AT Paris
SIGNOFF'
printf '%s\n' "$ORDERS" > "$WORK/orders.txt"
printf '["FRA I BUILD TROOP Q2 AT Paris", "FRA II MOVE TROOP FROM Paris TO Lyon"]\n' > "$WORK/orders.json"

mutt_send() {  # name subject [mutt options…] < body
  local name=$1 subject=$2; shift 2
  PBEM_CORPUS_OUT="$OUT/$name.eml" mutt -n -F /dev/null -e "set sendmail=\"$WORK/sendmail\"; \
    set from=\"Jean Dupont <jean@example.fr>\"; set use_from=yes; set hostname=example.fr" \
    -s "$subject" "$@" gm@pbem.test
}

# mutt 2.2: greeting above SIGNON, closing and name below SIGNOFF
printf 'Hi GM,\n\nhere are my orders for turn 3.\n\n%s\n\nCheers,\nJean\n' "$ORDERS" \
  | mutt_send mutt_greeting_and_closing "Re: [ratio-demo] turn 3"
# mutt, format=flowed, a reply written above the quoted report with mutt's own attribution
printf 'SIGNON fra ratio-demo s3cret\nFRA II MOVE TROOP FROM Paris TO Lyon \nTHEN TO Dijon\nSIGNOFF\n\nOn Mon, May 04, 2026 at 09:00:00AM +0000, Pbem GM wrote:\n> Turn 3 report for FRA\n> SIGNON fra ratio-demo <token>\n> FRA I BUILD TROOP Q9 AT Lyon\n' \
  | mutt_send mutt_flowed_top_posted "Re: [ratio-demo] turn 3" -e 'set text_flowed=yes'
# mutt: orders in an attached file
echo "My orders are in the attached file." | mutt_send mutt_txt_attachment "orders, turn 3" -a "$WORK/orders.txt" --
# mutt: two seats, two blocks
printf 'Both of my seats:\n\n%s\n\nSIGNON spa ratio-demo t0ken\nSPA I BUILD TROOP Q1 AT Madrid\nSIGNOFF\n' "$ORDERS" \
  | mutt_send mutt_two_blocks "orders for FRA and SPA"
# mutt: a clear-signed body (gpg --clearsign), dash-escaping included
gpg --batch --quiet --passphrase '' --quick-gen-key "Jean Dupont <jean@example.fr>" ed25519 sign never
printf 'Bonjour,\n\nSIGNON fra ratio-demo s3cret\nFRA I BUILD TROOP Q2 AT Paris\n- next turn: Lyon\nSIGNOFF\n' \
  | gpg --batch --clearsign | mutt_send mutt_pgp_clearsigned "signed orders"

# s-nail 14.9: orders attached as .txt, no Message-ID (left to the MTA, which did not add one)
echo "Orders attached." | PBEM_CORPUS_OUT="$OUT/snail_txt_attachment_no_message_id.eml" s-nail -:/ -Sv15-compat \
  -Smta="$WORK/sendmail" -Sfrom="Jean Dupont <jean@example.fr>" -Shostname=example.fr -Smessage-id-disable \
  -s "orders" -a "$WORK/orders.txt" gm@pbem.test
# s-nail: UTF-8 body (quoted-printable), greeting, place names with accents
printf 'Salut,\n\nSIGNON fra ratio-demo s3cret\nFRA I BUILD TROOP Q2 AT Orléans\nSIGNOFF\n\nAmitiés\n' \
  | PBEM_CORPUS_OUT="$OUT/snail_utf8_accents.eml" s-nail -:/ -Sv15-compat -Smta="$WORK/sendmail" \
      -Sfrom="Jean Dupont <jean@example.fr>" -Shostname=example.fr -Smime-encoding=quoted-printable -s "ordres" gm@pbem.test

# GNU Mailutils 3.15 `mail`: a valid block then a malformed one
printf '%s\n\nSIGNON spa\nSPA I BUILD TROOP Q1 AT Madrid\n' "$ORDERS" \
  | PBEM_CORPUS_OUT="$OUT/mailutils_malformed_second_signon.eml" mail -E "set sendmail=sendmail:$WORK/sendmail" \
      -a "From: Jean Dupont <jean@example.fr>" -s "orders" gm@pbem.test

# swaks 20201014: 8-bit UTF-8 labelled us-ascii; and a subject carrying control characters
printf 'SIGNON fra ratio-demo s3cret\nFRA I BUILD TROOP Q2 AT Orléans\nSIGNOFF\n' > "$WORK/utf8.txt"
swaks --to gm@pbem.test --from jean@example.fr --h-Subject "orders" --add-header "MIME-Version: 1.0" \
  --add-header "Content-Type: text/plain; charset=us-ascii" --body @"$WORK/utf8.txt" --dump-mail 2>/dev/null \
  | sed -n '/^Date:/,$p' > "$OUT/swaks_utf8_labelled_ascii.eml"
swaks --to gm@pbem.test --from eve@example.net --h-Subject "$(printf 'orders\x07\x1b[2J =?utf-8?q?=0D=0ABcc=3A_x=40evil.example?=')" \
  --h-From "$(printf '=?utf-8?q?Eve=00=0D=0ABcc=3A_all=40evil.example?= <eve@example.net>')" \
  --body @"$WORK/orders.txt" --dump-mail 2>/dev/null | sed -n '/^Date:/,$p' > "$OUT/swaks_control_characters.eml"

# mblaze 1.2 mmime: JSON attachment between two inline text parts (a signature after it)
printf 'From: Jean Dupont <jean@example.fr>\nTo: gm@pbem.test\nSubject: orders as JSON\nMessage-Id: <mblaze-json-1@example.fr>\n\nSIGNON fra ratio-demo s3cret\n#application/json %s\nJean Dupont -- France\nFRA III BUILD TROOP Q9 AT Lyon\n' \
  "$WORK/orders.json" | mmime > "$OUT/mblaze_json_then_text.eml"

# nmh 1.8 mhbuild: UTF-8 8bit, German, closing without `-- `
cat > "$WORK/draft" <<'DRAFT'
From: Kurt <kurt@web.example>
To: gm@pbem.test
Subject: Züge
--------
#<text/plain; charset=utf-8
Hallo GM,

SIGNON fra ratio-demo s3cret
FRA I BUILD TROOP Q2 AT Orléans
FRA II MOVE TROOP FROM Paris TO Lyon

Viele Grüße
Kurt
DRAFT
printf 'Path: Mail\n' > "$HOME/.mh_profile"
/usr/bin/mh/mhbuild "$WORK/draft" && cp "$WORK/draft" "$OUT/nmh_closing_without_dashes.eml"

# Emacs 28 message-mode (Gnus): a plain mail, and a PGP/MIME signed one (mml-sec)
emacs_send() {  # name subject body
  PBEM_CORPUS_OUT="$OUT/$1.eml" emacs --batch -l "$HERE/compose.el" --eval \
    "(pbem-corpus-send \"$WORK/sendmail\" \"$2\" \"$3\")" 2>/dev/null
}
emacs_send emacs_message_mode "orders" 'Hello GM,\n\nSIGNON fra ratio-demo s3cret\nFRA I BUILD TROOP Q2 AT Paris\nSIGNOFF\n\n-- \nJean\n'
emacs_send emacs_pgp_mime_signed "signed orders" '<#secure method=pgpmime mode=sign>\nSIGNON fra ratio-demo s3cret\nFRA I BUILD TROOP Q2 AT Paris\nSIGNOFF\n'

# The mutt mail delivered a second time through a forwarder: Postfix trace headers prepended
{ printf 'Return-Path: <jean@example.fr>\nX-Original-To: orders@pbem.test\nDelivered-To: gm@pbem.test\n'
  printf 'Received: from relay.pbem.test (relay.pbem.test [192.0.2.25])\n\tby mx.pbem.test (Postfix) with ESMTPS id 4Xy1Zq3kPz\n\tfor <gm@pbem.test>; Mon,  4 May 2026 09:14:05 +0000 (UTC)\n'
  cat "$OUT/mutt_greeting_and_closing.eml"; } > "$OUT/mutt_greeting_and_closing_redelivered.eml"
