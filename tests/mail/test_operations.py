"""Operations on a home (issue 13): a second daemon is refused; a GM command line and the
daemon writing one campaign at once both succeed (the loser reloads and does its work
again); a damaged store is named as such; `pbem backup` copies a home being written."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from pbem.app import HomeBusy, build_service, claim_home
from pbem.core.gm import GameMaster
from pbem.core.inbox import handle_mail
from pbem.mail.envelope import parse_mail
from tests.mail.campaign import REPO, create_campaign, recorded_mail
from tests.mail.fakes import player_mail


def pbem(*args: str, home: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pbem", *args, "--home", str(home)], cwd=REPO, capture_output=True,
                          text=True, timeout=120, env={**os.environ, "PYTHONPATH": str(REPO)})


def test_a_second_daemon_on_one_home_is_refused_with_a_clear_message(tmp_path: Path) -> None:
    service = create_campaign(tmp_path)
    lock = claim_home(tmp_path, service.store)
    try:
        with pytest.raises(HomeBusy, match="another pbem daemon"):
            claim_home(tmp_path, build_service(tmp_path).store)
        refused = pbem("run", "--once", home=tmp_path)
        assert refused.returncode == 2 and "another pbem daemon" in refused.stderr and "Traceback" not in refused.stderr
    finally:
        lock.release()
    assert pbem("run", "--once", home=tmp_path).returncode == 0


def racing(service, other_write):  # type: ignore[no-untyped-def]
    """`service` with another writer appending to the campaign just after its next work opened it."""
    opened = service.open_campaign
    raced: list[int] = []

    def open_then_race(name):  # type: ignore[no-untyped-def]
        result = opened(name)
        if not raced:
            raced.append(1)
            other_write()
        return result

    service.open_campaign = open_then_race
    return raced


def test_a_gm_command_line_while_the_daemon_writes_is_done_again_not_refused(tmp_path: Path) -> None:
    create_campaign(tmp_path)
    daemon = build_service(tmp_path, from_address="gm@pbem.test")
    command_line = build_service(tmp_path, from_address="gm@pbem.test")
    raced = racing(command_line, lambda: handle_mail(daemon, parse_mail(player_mail(1))))
    GameMaster(command_line).pause("ratio-demo", "a holiday")
    assert raced
    kinds = [type(e).__name__ for e in command_line.loader.campaign_events("ratio-demo")]
    assert kinds[-1] == "Paused" and {"OrdersSubmitted", "OrdersRejected"} & set(kinds), kinds


def test_a_mail_whose_campaign_changed_meanwhile_is_read_again_not_taken_for_recorded(tmp_path: Path) -> None:
    create_campaign(tmp_path)
    daemon = build_service(tmp_path, from_address="gm@pbem.test")
    command_line = build_service(tmp_path, from_address="gm@pbem.test")
    raced = racing(daemon, lambda: GameMaster(command_line).extend("ratio-demo", 24, "more time"))
    outcome = handle_mail(daemon, parse_mail(player_mail(2)))
    assert raced and not outcome.duplicate
    assert [k for k in (m.key for m in outcome.replies) if k.startswith("receipt:")]
    assert recorded_mail(tmp_path) == ["<orders-2@players.test>"]
    kinds = [type(e).__name__ for e in daemon.loader.campaign_events("ratio-demo")]
    assert kinds.index("DeadlineChanged") < max(i for i, k in enumerate(kinds) if k.startswith("Orders")), kinds


@pytest.mark.parametrize("damage", ["truncated", "empty"])
def test_a_damaged_store_is_named_as_such(tmp_path: Path, damage: str) -> None:
    create_campaign(tmp_path)
    store = tmp_path / "campaigns.sqlite"
    for side in ("-wal", "-shm"):
        Path(str(store) + side).unlink(missing_ok=True)
    os.truncate(store, store.stat().st_size // 2 if damage == "truncated" else 0)
    for command in (("list",), ("status", "ratio-demo")):
        result = pbem(*command, home=tmp_path)
        assert result.returncode == 2
        assert "campaigns.sqlite is damaged" in result.stderr and "pbem backup" in result.stderr, result.stderr


def test_backup_copies_a_home_while_it_is_written(tmp_path: Path) -> None:
    home = tmp_path / "home"
    create_campaign(home)
    service = build_service(home, from_address="gm@pbem.test")
    done = threading.Event()

    def write() -> None:
        for n in range(30):
            handle_mail(service, parse_mail(player_mail(n)))
        done.set()

    writer = threading.Thread(target=write)
    writer.start()
    result = pbem("backup", str(tmp_path / "copy"), home=home)
    writer.join()
    assert result.returncode == 0, result.stderr
    assert "integrity ok" in result.stdout
    copied = pbem("verify", "ratio-demo", home=tmp_path / "copy")
    assert copied.returncode == 0 and "verified" in copied.stdout
    again = pbem("backup", str(tmp_path / "copy"), home=home)
    assert again.returncode == 2 and "new directory" in again.stderr
