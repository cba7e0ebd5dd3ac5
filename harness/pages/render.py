r"""The one jinja2 environment pages are rendered with: autoescape on, strict undefined.

Everything the agent wrote reaches the page only through `{{ ... }}`, so it is escaped
exactly once, and control characters and unpaired surrogates in it are shown as escapes
(`\x1b`) rather than written raw. Data for the inline script goes through `script_json`,
which makes JSON that cannot close the script element or open markup inside it.
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from harness.core.bounds import visible

TEMPLATES = Path(__file__).resolve().parent / "templates"

# Characters that could end a <script> block or start markup inside it, written as
# JSON unicode escapes (which JSON.parse turns back into the same characters).
_SCRIPT_ESCAPES = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026",
                   "\u2028": "\\u2028", "\u2029": "\\u2029"}
# Characters JSON may leave raw that HTML calls parse errors or UTF-8 cannot encode
# (unpaired surrogates): written as JSON escapes, which JSON.parse reads back the same.
_SCRIPT_UNPRINTABLE = re.compile("[\x7f-\x9f\ud800-\udfff\ufffe\uffff]")


def script_json(value: Any) -> Markup:
    """JSON for a `<script type="application/json">` block.

    Args:
        value: Plain JSON data.

    Returns:
        The JSON text with <, >, & and the two line separators escaped, marked safe
        for the template because no character left in it is special there.
    """
    text = json.dumps(value, sort_keys=True, ensure_ascii=False, allow_nan=False)
    for char, escaped in _SCRIPT_ESCAPES.items():
        text = text.replace(char, escaped)
    text = _SCRIPT_UNPRINTABLE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
    return Markup(text)  # escaped above for the script context


def _shown(value: Any) -> Any:
    # Every {{ }} value passes here before autoescaping; markup made by a filter is
    # already safe for its context.
    return visible(value) if isinstance(value, str) and not isinstance(value, Markup) else value


def _number(value: Any, digits: int = 0) -> str:
    # Missing figures show as a dash: unknown is not zero.
    if value is None:
        return "—"
    return f"{value:,.{digits}f}"


@functools.cache
def environment() -> jinja2.Environment:
    """The shared environment (created once per process)."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        finalize=_shown,
    )
    env.filters["script_json"] = script_json
    env.filters["number"] = _number
    return env


def render(template: str, **context: Any) -> str:
    """Render one template with the given context.

    Args:
        template: File name under templates/.
        **context: Template variables.

    Returns:
        The HTML text.
    """
    return environment().get_template(template).render(**context)
