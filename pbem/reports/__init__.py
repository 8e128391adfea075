"""The report side: report models per viewer (player, public gazette, GM), their text,
HTML and JSON renderings, and maps. Game-agnostic: it reads only the ruleset's view
convention, so every game shares it (a ruleset may override templates in
`templates/<ruleset>/`)."""

from pbem.reports.maps import draw_map
from pbem.reports.models import Report, ReportError, build_report
from pbem.reports.renderer import MailRenderer, render_report

__all__ = ["MailRenderer", "Report", "ReportError", "build_report", "draw_map", "render_report"]
