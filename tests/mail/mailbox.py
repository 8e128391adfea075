"""The test mailboxes on the test Dovecot, and how mail gets into and out of them."""

from __future__ import annotations

from imapclient import IMAPClient

from pbem.mail.localservers import Dovecot

GM = "gm@pbem.test"
USERS = {GM: "gm sec/ret%", "fra@pbem.test": "frasecret"}  # a password that needs percent-encoding


def deliver(dovecot: Dovecot, *mails: bytes, user: str = GM) -> None:
    """Put mail into a mailbox as the MTA would (IMAP APPEND from another connection)."""
    client = IMAPClient("127.0.0.1", port=dovecot.imap_port, ssl=False, timeout=10)
    client.login(user, USERS[user])
    for mail in mails:
        client.append("INBOX", mail)
    client.logout()


def folder_uids(dovecot: Dovecot, folder: str) -> dict[int, tuple]:
    client = IMAPClient("127.0.0.1", port=dovecot.imap_port, ssl=False, timeout=10)
    client.login(GM, USERS[GM])
    try:
        if not client.folder_exists(folder):
            return {}
        client.select_folder(folder, readonly=True)
        uids = client.search(["ALL"])
        return {uid: data[b"FLAGS"] for uid, data in client.fetch(uids, ["FLAGS"]).items()} if uids else {}
    finally:
        client.logout()
