"""Mail settings, from `pbem.toml` in the campaign home and the environment (which wins).

A GM sets two URLs and an address and nothing else:

    PBEM_IMAP_URL=imaps://gm%40example.org:app-password@imap.example.org:993/INBOX
    PBEM_SMTP_URL=smtps://gm%40example.org:app-password@smtp.example.org:465
    PBEM_FROM=gm@example.org

or the `[mail]` table of `pbem.toml` with the same names in lower case without the prefix
(`imap_url`, `smtp_url`, `from`, ...). With neither an IMAP URL nor a Maildir, the home's
`mail/inbox` Maildir is read; with neither SMTP nor an outbox Maildir, replies are written to
`mail/outbox`. A bad value is one `MailSettingsError` line naming the setting, never a
traceback; passwords are `SecretStr`, so no repr or log shows them.
"""

from __future__ import annotations

import os
import ssl
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Literal
from urllib.parse import unquote, urlsplit

from pydantic import BaseModel, ConfigDict, SecretStr, ValidationError

from pbem.mail.envelope import DEFAULT_MAX_BYTES

TlsMode = Literal["tls", "starttls", "none"]
"""`tls`: implicit TLS (imaps, smtps); `starttls`: upgrade when the server offers it."""


class MailSettingsError(ValueError):
    """A setting that cannot be used; the message is one line for the GM."""


class ServerSettings(BaseModel):
    """One IMAP or SMTP server, parsed from its URL."""

    model_config = ConfigDict(frozen=True)

    host: str
    port: int
    tls: TlsMode
    user: str | None = None
    password: SecretStr | None = None
    folder: str = "INBOX"
    verify_tls: bool = True
    ca_file: Path | None = None

    def ssl_context(self) -> ssl.SSLContext:
        """The TLS context: the system CAs, or `ca_file`, or no verification if disabled."""
        context = ssl.create_default_context(cafile=str(self.ca_file) if self.ca_file else None)
        if not self.verify_tls:
            context.check_hostname = False
            context.verify_mode = ssl.CERT_NONE
        return context

    def describe(self) -> str:
        """For logs: everything but the password."""
        who = f"{self.user}@" if self.user else ""
        return f"{self.tls}://{who}{self.host}:{self.port}"


class MailSettings(BaseModel):
    model_config = ConfigDict(frozen=True)

    home: Path
    from_address: str
    imap: ServerSettings | None = None
    smtp: ServerSettings | None = None
    maildir: Path | None = None
    outbox_maildir: Path | None = None
    processed_folder: str = "Processed"
    max_mail_bytes: int = DEFAULT_MAX_BYTES
    poll_seconds: float = 1.0
    """Maildir polling interval, and the IMAP poll interval when the server has no IDLE."""
    tick_seconds: float = 30.0
    """How often `on_tick` runs (and the longest an IDLE lasts before it is renewed)."""
    failure_limit: int = 5
    failure_window_seconds: float = 3600.0
    """At most `failure_limit` refusals per address per window are answered."""
    retry_base_seconds: float = 5.0
    retry_cap_seconds: float = 3600.0

    postgres: dict[str, str] | None = None
    """The campaigns' PostgreSQL database (libpq keywords), when they are kept there: the
    mail state lives there too, so homes on several machines share it."""

    @property
    def state_path(self) -> Path:
        """The mail layer's own SQLite file (outbox, processed sources, refusals)."""
        return self.home / "mail.sqlite3"

    @property
    def mail_state(self) -> Path | dict[str, str]:
        """Where the mail state is: the campaigns' PostgreSQL database, else `state_path`."""
        return self.postgres if self.postgres is not None else self.state_path


_SCHEMES = {
    "imap": ("imap", "starttls", 143),
    "imaps": ("imap", "tls", 993),
    "smtp": ("smtp", "starttls", 587),
    "smtps": ("smtp", "tls", 465),
}


def parse_server_url(name: str, url: str, kind: str, *, verify_tls: bool = True,
                     ca_file: Path | None = None) -> ServerSettings:
    """`imap[s]://user:pass@host:port/FOLDER` or `smtp[s]://[user:pass@]host:port`.

    User and password are percent-decoded (`gm%40example.org`). The query `?tls=none`
    forbids the STARTTLS upgrade (a plaintext test server).
    """
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError as error:
        raise MailSettingsError(f"{name}: {error}") from None
    scheme = _SCHEMES.get(parts.scheme.lower())
    if scheme is None or scheme[0] != kind:
        raise MailSettingsError(f"{name}: the URL must start with {kind}:// or {kind}s://")
    if not parts.hostname:
        raise MailSettingsError(f"{name}: no host in the URL")
    tls: TlsMode = scheme[1]  # type: ignore[assignment]
    if parts.query:
        options = dict(item.partition("=")[::2] for item in parts.query.split("&"))
        if options.get("tls") == "none" and tls == "starttls":
            tls = "none"
    folder = unquote(parts.path.lstrip("/")) or "INBOX"
    if kind == "imap" and not (parts.username and parts.password):
        raise MailSettingsError(f"{name}: an IMAP URL needs user and password (user%40domain:password@host)")
    return ServerSettings(
        host=parts.hostname, port=port or scheme[2], tls=tls,
        user=unquote(parts.username) if parts.username else None,
        password=SecretStr(unquote(parts.password)) if parts.password else None,
        folder=folder, verify_tls=verify_tls, ca_file=ca_file,
    )


def _truthy(name: str, value: object) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in {"1", "true", "yes", "on"}:
        return True
    if text in {"0", "false", "no", "off"}:
        return False
    raise MailSettingsError(f"{name}: expected true or false, got {value!r}")


def _number(name: str, value: object, kind: type) -> int | float:
    try:
        number = kind(value)
    except (TypeError, ValueError):
        raise MailSettingsError(f"{name}: expected a number, got {value!r}") from None
    if number <= 0:
        raise MailSettingsError(f"{name}: must be positive, got {value!r}")
    return number


_KEYS = {
    # name in pbem.toml [mail] → environment variable
    "imap_url": "PBEM_IMAP_URL", "smtp_url": "PBEM_SMTP_URL", "maildir": "PBEM_MAILDIR",
    "outbox_maildir": "PBEM_OUTBOX_MAILDIR", "from": "PBEM_FROM", "max_mail_bytes": "PBEM_MAX_MAIL_BYTES",
    "tls_verify": "PBEM_TLS_VERIFY", "ca_file": "PBEM_CA_FILE", "processed_folder": "PBEM_PROCESSED_FOLDER",
    "poll_seconds": "PBEM_POLL_SECONDS", "tick_seconds": "PBEM_TICK_SECONDS",
    "failure_limit": "PBEM_FAILURE_LIMIT",
}


#: The event store's PostgreSQL settings (eventsourcing's variables) as libpq keywords.
_POSTGRES = {"host": "POSTGRES_HOST", "port": "POSTGRES_PORT", "dbname": "POSTGRES_DBNAME",
             "user": "POSTGRES_USER", "password": "POSTGRES_PASSWORD"}


def _raw_values(home: Path, env: Mapping[str, str]) -> dict[str, object]:
    values: dict[str, object] = {}
    toml_path = home / "pbem.toml"
    if toml_path.exists():
        try:
            table = tomllib.loads(toml_path.read_text(encoding="utf-8")).get("mail", {})
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
            raise MailSettingsError(f"{toml_path}: {error}") from None
        if not isinstance(table, dict):
            raise MailSettingsError(f"{toml_path}: [mail] must be a table")
        unknown = sorted(set(table) - set(_KEYS))
        if unknown:
            raise MailSettingsError(f"{toml_path}: unknown [mail] setting {unknown[0]!r}")
        values.update(table)
    for key, variable in _KEYS.items():
        if env.get(variable, "").strip():
            values[key] = env[variable].strip()
    return values


def load_settings(home: Path, env: Mapping[str, str] | None = None) -> MailSettings:
    """Settings for the campaign home `home`, from its `pbem.toml` and `env` (default os.environ)."""
    env = os.environ if env is None else env
    home = Path(home)
    values = _raw_values(home, env)

    def where(key: str) -> str:
        return _KEYS[key] if env.get(_KEYS[key], "").strip() else f"pbem.toml [mail] {key}"

    verify = _truthy(where("tls_verify"), values.get("tls_verify", True))

    def path(key: str) -> Path | None:
        """A path setting; in pbem.toml a relative one is inside the home, so a copied or
        moved home keeps working and points at nothing of the original."""
        if not values.get(key):
            return None
        given = Path(str(values[key])).expanduser()
        from_environment = bool(env.get(_KEYS[key], "").strip())
        return given if given.is_absolute() or from_environment else home / given

    ca_file = path("ca_file")
    if ca_file is not None and not ca_file.is_file():
        raise MailSettingsError(f"{where('ca_file')}: no such file {ca_file}")
    imap = smtp = None
    if values.get("imap_url"):
        imap = parse_server_url(where("imap_url"), str(values["imap_url"]), "imap", verify_tls=verify, ca_file=ca_file)
    if values.get("smtp_url"):
        smtp = parse_server_url(where("smtp_url"), str(values["smtp_url"]), "smtp", verify_tls=verify, ca_file=ca_file)
    maildir = path("maildir")
    outbox = path("outbox_maildir")
    if imap is None and maildir is None:
        maildir = home / "mail" / "inbox"
    if smtp is None and outbox is None:
        outbox = home / "mail" / "outbox"
    sender = str(values.get("from") or (imap.user if imap and imap.user and "@" in imap.user else "pbem@localhost"))
    if "@" not in sender or any(c.isspace() for c in sender):
        raise MailSettingsError(f"{where('from')}: {sender!r} is not a mail address")
    extra: dict[str, object] = {}
    for key, kind in (("max_mail_bytes", int), ("poll_seconds", float), ("tick_seconds", float),
                      ("failure_limit", int)):
        if key in values:
            extra[key] = _number(where(key), values[key], kind)
    if values.get("processed_folder"):
        extra["processed_folder"] = str(values["processed_folder"])
    if env.get("PERSISTENCE_MODULE", "").strip() == "eventsourcing.postgres":
        extra["postgres"] = {keyword: env[variable] for keyword, variable in _POSTGRES.items() if env.get(variable)}
    try:
        return MailSettings(home=home, from_address=sender.lower(), imap=imap, smtp=smtp, maildir=maildir,
                            outbox_maildir=outbox, **extra)
    except ValidationError as error:
        first = error.errors()[0]
        raise MailSettingsError(f"{'.'.join(map(str, first['loc']))}: {first['msg']}") from None
