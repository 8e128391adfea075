"""Nothing lost, nothing sent twice, nothing changed: `pbem run` (real Dovecot, real SMTP,
the real campaign service) is SIGKILLed at random points while mails arrive and deadlines
pass (`pbem.tools.reliability_bench`, here with bounded counts). After a final restart
every mail was recorded once; every reply the same inputs cause in an uninterrupted run —
receipts, explanations, press, reports, the GM's receipts and announcements (one mail in
ten is the GM's, three commands a kill can fall between) — was sent, with the same bytes; the campaigns'
state hashes are equal. SMTP gives no way to ask a server whether it already took a mail,
so a kill that falls between the server's "250 OK" and the outbox's commit sends that one
mail again, byte for byte (`pbem.mail.sender`): at most one duplicate per kill."""

from __future__ import annotations

import pytest

from pbem.tools.reliability_bench import run_reliability_bench

pytestmark = [pytest.mark.dovecot, pytest.mark.slow]

MAILS, HOURS, CLOCKS, KILLS = 120, 6, 3, 8


def test_sigkill_at_random_points_loses_nothing_and_changes_no_reply(dovecot) -> None:  # needs dovecot
    result = run_reliability_bench(MAILS, HOURS, CLOCKS, min_kills=KILLS, max_kills=30, timeout=240)
    assert result["kills"] >= KILLS
    assert result["recorded_once"] == MAILS and result["recorded_twice"] == 0, "every mail recorded once"
    assert result["deadlines_killed_run"] == result["deadlines"] == HOURS * CLOCKS
    assert result["lost"] == 0 and result["unexpected"] == 0, result
    assert result["gm_announcements"] > 0
    assert result["replies_differing"] == 0 and result["resends_differing"] == 0, result
    assert result["duplicated"] <= result["kills"], "only the SMTP window repeats a mail"
    assert result["hash_equal"], result
    assert (result["inbox_left"], result["processed_folder"]) == (0, MAILS)
    assert result["clean_exit"]
