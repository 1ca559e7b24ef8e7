"""Regular expressions compiled the first time a text needs them.

The parser holds a few hundred patterns and a text uses well under half of them: compiling every one at import cost
each `gpuops plan` run ~40 ms, most of it for patterns the text never reached. ``compiled_on_use`` returns a stand-in
that compiles on its first use and from then on hands out the compiled pattern's own methods, so a pattern in use
costs what a compiled one does.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, cast

__all__ = ["compiled_on_use", "use_compiler"]

Compiler = Callable[[str, int], re.Pattern[str]]
_compile: Compiler = re.compile  # what compiles a pattern on its first use (``use_compiler``)


def use_compiler(compiler: Compiler) -> Compiler:
    """Compile the patterns not yet in use with ``compiler`` from now on (it must give what ``re.compile`` gives:
    a command keeps compiled patterns between its runs, ``gpuops.pattern_cache``); returns the one it replaces."""
    global _compile
    previous, _compile = _compile, compiler
    return previous

# What the stand-in takes from the compiled pattern once it is compiled, so later calls go straight to it.
_TAKEN = ("findall", "finditer", "fullmatch", "groupindex", "groups", "match", "scanner", "search", "split", "sub",
          "subn")


class _OnUse:
    """A pattern's source and flags, compiled when any other attribute is first asked for."""

    def __init__(self, pattern: str, flags: int) -> None:
        self.pattern = pattern
        self.flags = flags

    def __getattr__(self, name: str) -> Any:
        # Only called for what the instance does not hold yet: the first use of the compiled pattern.
        compiled = _compile(self.pattern, self.flags)
        for taken in _TAKEN:
            setattr(self, taken, getattr(compiled, taken))
        self.flags = compiled.flags  # as the compiled pattern reports them (re.UNICODE added for str patterns)
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"compiled_on_use({self.pattern!r}, {self.flags!r})"


def compiled_on_use(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """``re.compile(pattern, flags)``, compiled the first time the pattern is used (see the module's docstring)."""
    return cast("re.Pattern[str]", _OnUse(pattern, flags))
