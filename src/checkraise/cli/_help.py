"""Plain ``--help`` pages that wrap to the terminal without leaving a word alone on a line.

The help is click's plain layout (typer's ``rich_markup_mode=None``): usage, the
description, then one row per option. Two things are done differently from click's
own formatter: a wrapped text never ends on a line holding one word (a "widow": the
wrap width is narrowed until the last line has company), and a trailing
``[default: ...]`` / ``[required]`` note is never broken inside its brackets.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

import typer

if TYPE_CHECKING:
    from typer._click.core import Command
    from typer._click.formatting import HelpFormatter as _BaseFormatter
else:
    # The formatter of whichever click typer runs on (its own copy in newer typer versions).
    _BaseFormatter = typer.Context.formatter_class

__all__ = ["HelpContext", "WidowlessFormatter", "use_widowless_help", "wrap"]

# Spaces inside the bracketed notes click appends to an option's help; they become
# no-break spaces while wrapping (textwrap breaks only at ASCII whitespace).
_NOTE = re.compile(r"\[[^\[\]]*\]")
_NBSP = "\u00a0"


def _protect(text: str) -> str:
    return _NOTE.sub(lambda m: m.group(0).replace(" ", _NBSP), text)


def wrap(text: str, width: int) -> list[str]:
    """Wrap one paragraph to ``width`` so that its last line holds two words or more.

    The width is narrowed a column at a time, keeping the number of lines, until a
    word moves down beside the last one; if none does, the plain wrap is kept.

    Examples
    --------
    >>> wrap("Folder for the log and profile.json. [required]", 40)
    ['Folder for the log and', 'profile.json. [required]']
    >>> wrap("one two", 3)
    ['one', 'two']
    """
    text = _protect(" ".join(text.split()))
    lines = textwrap.wrap(text, width, break_on_hyphens=False)
    if len(lines) >= 2 and len(lines[-1].split()) < 2:
        for narrower in range(width - 1, max(width // 2, 1), -1):
            again = textwrap.wrap(text, narrower, break_on_hyphens=False)
            if len(again) > len(lines):
                break
            if len(again[-1].split()) >= 2:
                lines = again
                break
    return [line.replace(_NBSP, " ") for line in lines]


class WidowlessFormatter(_BaseFormatter):
    """click's help formatter with :func:`wrap` for descriptions and option help."""

    def write_text(self, text: str) -> None:
        """Rewrap each paragraph (blank-line separated) at the current indentation."""
        indent = " " * self.current_indent
        width = max(self.width - self.current_indent, 20)
        paragraphs = [p for p in re.split(r"\n\s*\n", text) if p.strip()]
        for k, paragraph in enumerate(paragraphs):
            if k:
                self.write("\n")
            self.write("".join(f"{indent}{line}\n" for line in wrap(paragraph, width)))

    def write_dl(
        self, rows: Sequence[tuple[str, str]], col_max: int = 30, col_spacing: int = 2
    ) -> None:
        """Write ``(term, help)`` rows: terms in a column, help wrapped beside them."""
        rows = list(rows)
        if not rows:
            return
        term_width = min(max(len(term) for term, _ in rows), col_max)
        text_col = self.current_indent + term_width + col_spacing
        width = max(self.width - text_col, 20)
        indent = " " * self.current_indent
        for term, text in rows:
            head = f"{indent}{term}"
            if not text:
                self.write(f"{head}\n")
                continue
            lines = wrap(text, width)
            if len(term) <= term_width:
                self.write(f"{head.ljust(text_col)}{lines[0]}\n")
                lines = lines[1:]
            else:  # a long term gets its own line, the help starts below it
                self.write(f"{head}\n")
            self.write("".join(f"{' ' * text_col}{line}\n" for line in lines))


class HelpContext(typer.Context):
    """A context whose help pages use :class:`WidowlessFormatter`."""

    formatter_class = WidowlessFormatter


def _tree(command: Command) -> Iterable[Command]:
    yield command
    for sub in getattr(command, "commands", {}).values():
        yield from _tree(sub)


def use_widowless_help(command: Command) -> Command:
    """Give ``command`` and all its subcommands :class:`HelpContext`; return it."""
    for cmd in _tree(command):
        cmd.context_class = HelpContext
    return command
