"""Settings from pbem.toml and the environment; bad values are one clear line."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.mail.settings import MailSettingsError, load_settings


def test_percent_encoded_user_and_password(tmp_path: Path) -> None:
    settings = load_settings(tmp_path, {"PBEM_IMAP_URL": "imaps://gm%40example.org:p%40ss%3Aw0rd@imap.example.org/Orders",
                                        "PBEM_SMTP_URL": "smtps://gm%40example.org:p%40ss%3Aw0rd@smtp.example.org"})
    imap, smtp = settings.imap, settings.smtp
    assert imap is not None and smtp is not None
    assert (imap.user, imap.host, imap.port, imap.tls, imap.folder) == ("gm@example.org", "imap.example.org", 993,
                                                                        "tls", "Orders")
    assert imap.password is not None and imap.password.get_secret_value() == "p@ss:w0rd"
    assert (smtp.port, smtp.tls) == (465, "tls")
    assert settings.from_address == "gm@example.org"  # the IMAP user, when PBEM_FROM is not set
    assert "w0rd" not in repr(settings) and "w0rd" not in imap.describe()


def test_plain_schemes_mean_starttls_and_tls_none_forbids_it(tmp_path: Path) -> None:
    settings = load_settings(tmp_path, {"PBEM_IMAP_URL": "imap://u:p@h", "PBEM_SMTP_URL": "smtp://h:2525?tls=none"})
    assert (settings.imap.tls, settings.imap.port) == ("starttls", 143)  # type: ignore[union-attr]
    assert (settings.smtp.tls, settings.smtp.port, settings.smtp.user) == ("none", 2525, None)  # type: ignore[union-attr]


def test_maildir_defaults_in_the_home(tmp_path: Path) -> None:
    settings = load_settings(tmp_path, {})
    assert settings.maildir == tmp_path / "mail" / "inbox" and settings.outbox_maildir == tmp_path / "mail" / "outbox"
    assert settings.from_address == "pbem@localhost" and settings.max_mail_bytes == 2 * 1024 * 1024
    assert settings.state_path == tmp_path / "mail.sqlite3"


def test_toml_with_environment_overriding(tmp_path: Path) -> None:
    (tmp_path / "pbem.toml").write_text('[mail]\nfrom = "gm@toml.example"\nmax_mail_bytes = 1000\n'
                                        'maildir = "/srv/inbox"\ntls_verify = false\n')
    settings = load_settings(tmp_path, {"PBEM_MAX_MAIL_BYTES": "5000", "PBEM_IMAP_URL": "imap://u:p@h"})
    assert settings.from_address == "gm@toml.example"
    assert settings.max_mail_bytes == 5000 and settings.maildir == Path("/srv/inbox")
    assert settings.imap is not None and settings.imap.verify_tls is False


def test_relative_paths_in_pbem_toml_are_inside_the_home_wherever_pbem_runs(tmp_path: Path, monkeypatch) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "ca.pem").write_text("not checked here")
    (home / "pbem.toml").write_text('[mail]\nmaildir = "inbox"\noutbox_maildir = "../sent"\nca_file = "ca.pem"\n'
                                    'imap_url = "imaps://u:p@h"\n')
    monkeypatch.chdir(tmp_path)
    settings = load_settings(Path("home"), {})
    assert settings.maildir == Path("home/inbox") and settings.outbox_maildir == Path("home/../sent")
    assert settings.imap is not None and settings.imap.ca_file == Path("home/ca.pem")
    # the environment's paths are the shell's, read from where pbem runs
    assert load_settings(Path("home"), {"PBEM_MAILDIR": "elsewhere"}).maildir == Path("elsewhere")


@pytest.mark.parametrize(("env", "toml", "message"), [
    ({"PBEM_IMAP_URL": "http://x"}, "", "PBEM_IMAP_URL: the URL must start with imap:// or imaps://"),
    ({"PBEM_IMAP_URL": "imap://host"}, "", "PBEM_IMAP_URL: an IMAP URL needs user and password"),
    ({"PBEM_IMAP_URL": "imap://u:p@h:port"}, "", "PBEM_IMAP_URL:"),
    ({"PBEM_SMTP_URL": "smtp://"}, "", "PBEM_SMTP_URL: no host"),
    ({"PBEM_MAX_MAIL_BYTES": "lots"}, "", "PBEM_MAX_MAIL_BYTES: expected a number"),
    ({"PBEM_MAX_MAIL_BYTES": "-1"}, "", "PBEM_MAX_MAIL_BYTES: must be positive"),
    ({"PBEM_FROM": "not an address"}, "", "PBEM_FROM:"),
    ({"PBEM_TLS_VERIFY": "perhaps"}, "", "PBEM_TLS_VERIFY: expected true or false"),
    ({"PBEM_CA_FILE": "/nonexistent/ca.pem"}, "", "PBEM_CA_FILE: no such file"),
    ({}, "[mail]\nimap_urll = 'x'\n", "unknown [mail] setting 'imap_urll'"),
    ({}, "[mail\n", "pbem.toml"),
    ({}, "[mail]\nfrom = 'nobody'\n", "pbem.toml [mail] from:"),
])
def test_bad_settings_are_one_line(tmp_path: Path, env: dict[str, str], toml: str, message: str) -> None:
    if toml:
        (tmp_path / "pbem.toml").write_text(toml)
    with pytest.raises(MailSettingsError) as error:
        load_settings(tmp_path, env)
    assert message in str(error.value) and "\n" not in str(error.value)
