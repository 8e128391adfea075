"""How a step was resolved, for settling disputes (issue 6): every chronicle line, every
decision with where its answer came from (orders, which standing policy or conditional
line, queued orders, the deadline's default), the queued orders used or dropped while
it was open (to the GM), and every roll with its purpose, stream key and rule —
filtered to what the asking viewer may see (`gm` sees everything)."""

from __future__ import annotations

from pbem.core.projection import ResolvedStep


def explain(step: ResolvedStep, viewer: str) -> list[str]:
    lines = [f"step {step.step} (log version {step.version}), state hash {step.state_hash}"]
    lines += [f"  {note}" for note in step.queue_notes if viewer == "gm"]
    for used in step.result.used:
        request = used.request
        if viewer != "gm" and request.player != viewer and request.sealed:
            continue
        answer = used.answer.value if viewer in ("gm", request.player) or not request.sealed else "(sealed)"
        lines.append(f"  decision {request.key} by {request.player}: {request.prompt}")
        lines.append(f"    answer {answer!r}, from {used.answer.source}" + (f" [{request.rule}]" if request.rule else ""))
    for entry in step.result.chronicle:
        if not entry.visible(viewer):
            continue
        lines.append(f"  | {entry.text}" + (f"  [{entry.rule}]" if entry.rule else ""))
        for roll in entry.rolls:
            forced = ", forced" if roll["forced"] else ""
            lines.append(f"      roll {roll['purpose']} d{roll['sides']} = {roll['value']}{forced} "
                         f"[{roll['rule']}] key {roll['key']}")
    return lines
