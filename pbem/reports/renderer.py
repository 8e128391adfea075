"""`MailRenderer`, the core's `Renderer`: turns receipts, reports, refusals and press into
mail with a plain-text body that reads at 72 columns, an HTML alternative with inlined
CSS and the map inline as SVG, and the map again as a PNG attachment for clients that
strip SVG. Text, HTML and JSON come from the same model, so they cannot disagree.

`render_report` is the same path for `pbem report`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from jinja2 import Environment

from pbem.core.decisions import kinds_of
from pbem.core.messages import Attachment, OutgoingMail
from pbem.core.projection import CampaignProjection
from pbem.core.service import Receipt
from pbem.reports.maps import MapDrawing, drawing, scalable
from pbem.reports.models import (Note, OwedDecision, Report, ReportError, build_receipt, build_report, deadline,
                                 order_form)
from pbem.reports.templating import Verbatim, environment, render

Format = Literal["text", "html", "json"]


def map_drawing(report: Report, boards: Path | None = None) -> MapDrawing | None:
    """The report's map with its legend naming the powers, if it has one, on the campaign's
    board when `boards` holds one for it (`<boards>/<campaign>/board.toml`)."""
    if report.map is None:
        return None
    return drawing(report.map, {row[0]: row[1] for row in report.powers.rows} if report.powers else {},
                   boards / report.campaign if boards is not None else None)


def _env(templates_dir: Path | None, ruleset: str | None) -> Environment:
    return environment(templates_dir.resolve() if templates_dir else None, ruleset)


def report_text(report: Report, *, ruleset: str | None = None, templates_dir: Path | None = None,
                data: dict | None = None) -> str:
    """The plain-text report (`data`: the report already dumped, when the caller has it)."""
    return render(_env(templates_dir, ruleset), "report.txt.j2", data or report)




def report_html(report: Report, *, ruleset: str | None = None, templates_dir: Path | None = None,
                svg: str | None = None, data: dict | None = None, boards: Path | None = None) -> str:
    """The HTML report. The map's SVG carries its own styling, so it is kept out of the
    CSS inliner's way (`Verbatim`)."""
    if svg is None:
        pictures = map_drawing(report, boards)
        svg = pictures.svg() if pictures else None
    return render(_env(templates_dir, ruleset), "report.html.j2", data or report,
                  map_svg=Verbatim(scalable(svg) if svg else ""))


def render_report(projection: CampaignProjection, viewer: str, fmt: Format = "text", *,
                  since_version: int | None = None, templates_dir: Path | None = None,
                  heading: str | None = None, boards: Path | None = None) -> str:
    """One report as text, HTML or JSON (for `pbem report`). Without `since_version` it
    tells the last resolved step and the one in progress; the GM's tells everything.
    `heading` replaces the view's turn label (a report of a past turn names that turn)."""
    if fmt not in ("text", "html", "json"):
        raise ReportError(f"unknown format {fmt!r} (text, html or json)")
    if since_version is None and viewer == "gm":
        since_version = 0
    report = build_report(projection, viewer, since_version=since_version)
    if heading is not None:
        report = report.model_copy(update={"turn_label": heading})
    if fmt == "json":
        return report.model_dump_json(indent=2) + "\n"
    if fmt == "html":
        return report_html(report, ruleset=projection.data.ruleset, templates_dir=templates_dir, boards=boards)
    return report_text(report, ruleset=projection.data.ruleset, templates_dir=templates_dir)


class MailRenderer:
    """The renderer the campaign service mails with. `templates_dir` overrides any
    template by name (a campaign's own look); `from_address` is where players send orders."""

    def __init__(self, templates_dir: Path | str | None = None, from_address: str = "", *,
                 attach_png: bool = True, campaign_templates: Path | str | None = None,
                 boards: Path | str | None = None):
        self.templates_dir = Path(templates_dir) if templates_dir else None
        self.boards = Path(boards) if boards else None  # a campaign's board from the GM's VASSAL module
        self.campaign_templates = Path(campaign_templates) if campaign_templates else None
        self.from_address = from_address
        self.attach_png = attach_png

    def _templates(self, campaign: str) -> Path | None:
        """A campaign's own templates (`<campaign_templates>/<campaign>/`), if the GM made any."""
        if self.campaign_templates is not None and (self.campaign_templates / campaign).is_dir():
            return self.campaign_templates / campaign
        return self.templates_dir

    def report(self, projection: CampaignProjection, viewer: str, *, since_version: int, key: str) -> OutgoingMail:
        report = build_report(projection, viewer, since_version=since_version, from_address=self.from_address)
        ruleset = projection.data.ruleset
        pictures = map_drawing(report, self.boards)
        svg = pictures.svg() if pictures else None
        attachments = [Attachment(filename="report.json", content_type="application/json",
                                  data=report.model_dump_json().encode())]
        if pictures and self.attach_png:
            attachments.insert(0, Attachment(filename="map.png", content_type="image/png", data=pictures.png()))
        record = projection.data.players.get(viewer)
        templates = self._templates(projection.data.campaign)
        data = report.model_dump(mode="json")
        return OutgoingMail(
            key=key,
            to=record.address if record else viewer,
            subject=f"[{report.campaign}] {report.turn_label}: report for {report.viewer_name}",
            text=report_text(report, ruleset=ruleset, templates_dir=templates, data=data),
            html=report_html(report, ruleset=ruleset, templates_dir=templates, svg=svg, data=data),
            attachments=tuple(attachments),
        )

    def receipt(self, receipt: Receipt, *, key: str, in_reply_to: str | None) -> OutgoingMail:
        model = build_receipt(receipt, from_address=self.from_address)
        env = _env(self._templates(receipt.campaign), None)
        verdict = "orders received" if model.accepted else "orders refused"
        return OutgoingMail(
            key=key, to=receipt.to, in_reply_to=in_reply_to,
            references=(in_reply_to,) if in_reply_to else (),
            subject=f"[{model.campaign}] {verdict}",
            text=render(env, "receipt.txt.j2", model), html=render(env, "receipt.html.j2", model),
        )

    def refusal(self, to: str, subject: str, text: str, *, key: str, in_reply_to: str | None) -> OutgoingMail:
        note = Note(title="Your mail could not be used", text=text, from_address=self.from_address,
                    footer="Start your orders with SIGNON <player> <campaign> <token> and end them with SIGNOFF.")
        return self._note(note, to=to, subject=subject, key=key, in_reply_to=in_reply_to)

    def press(self, projection: CampaignProjection, to_player: str, sender: str, text: str, *,
              key: str) -> OutgoingMail:
        players = projection.data.players
        name = players[sender].name if sender in players else sender
        note = Note(title=f"Press from {name}", text=text, campaign=projection.data.campaign, sender=name,
                    from_address=self.from_address, footer="Press is passed on as written; the rules do not check it.")
        record = players.get(to_player)
        return self._note(note, to=record.address if record else to_player,
                          subject=f"[{projection.data.campaign}] press from {name}", key=key, in_reply_to=None)

    def notice(self, to: str, subject: str, title: str, text: str, *, key: str,
               in_reply_to: str | None = None) -> OutgoingMail:
        """A short note: the GM's receipt, an explanation asked for by mail."""
        note = Note(title=title, text=text, from_address=self.from_address)
        return self._note(note, to=to, subject=subject, key=key, in_reply_to=in_reply_to)

    def reminder(self, projection: CampaignProjection, player: str, *, key: str) -> OutgoingMail:
        """What the player still owes, the deadline in their zone, and the reply that
        accepts the defaults."""
        record = projection.data.players[player]
        owed = [OwedDecision(key=r.key, kind=r.kind, power=r.power, prompt=r.prompt, rule=r.rule,
                             form=kinds_of(projection.ruleset).order_form(r)) for r in projection.pending_for(player)]
        due = deadline(projection.data.deadlines.get(projection.step or ""), record.timezone)
        lines = [f"Your orders are due {due.local} ({due.utc_text})." if due else "Your orders are due."]
        lines += [f"- {item.prompt}" for item in owed]
        lines += ["", "Reply with this to accept the defaults (fill in your token):", "",
                  order_form(player, projection.data.campaign, owed)]
        note = Note(title="Reminder: orders due", text="\n".join(lines), campaign=projection.data.campaign,
                    from_address=self.from_address)
        return self._note(note, to=record.address, subject=f"[{projection.data.campaign}] reminder: orders due",
                          key=key, in_reply_to=None)

    def _note(self, note: Note, *, to: str, subject: str, key: str, in_reply_to: str | None) -> OutgoingMail:
        env = _env(self.templates_dir, None)
        return OutgoingMail(key=key, to=to, subject=subject, in_reply_to=in_reply_to,
                            references=(in_reply_to,) if in_reply_to else (),
                            text=render(env, "note.txt.j2", note), html=render(env, "note.html.j2", note))
