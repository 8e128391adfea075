"""pbem: an event-sourced play-by-email adjudicator for grand-strategy board games."""

__version__ = "0.1.0"
