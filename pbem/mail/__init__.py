"""The mail layer: turns mailboxes into `Envelope`s for the campaign service and sends its replies.

Sources (IMAP, Maildir) feed raw mail to `daemon`, which parses it (`envelope`), guards against
mail storms (`guards`), hands it to the service, and queues the replies in a durable `outbox`
drained by a sink (SMTP, Maildir). Nothing here knows a game.
"""
