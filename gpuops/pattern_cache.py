"""The parser's compiled patterns, kept between `gpuops plan` runs.

A text needs some eighty of the parser's patterns, and compiling them is a sixth of a `gpuops plan` process (~40 ms:
Python parses each pattern in Python code every run). The compiled programs are kept in one file in the user's
cache directory, named for the interpreter that made them, so a later run of the same interpreter builds each
pattern from its program, and a different one (or a newer release of the regular-expression engine) starts a file of
its own. The file is only ever an accelerator: one that cannot be read, or a program the engine refuses, is
compiled as usual; one that cannot be written leaves the next run as fast as this one. The service compiles its
patterns once at start and keeps them, so it has no use for this.

This reads the engine's own compiler (``re._parser``, ``re._compiler``, ``_sre.compile``), which the standard
library does not promise to keep; the file's name holds the interpreter's version, and any failure falls back on
``re.compile``.
"""

from __future__ import annotations

import array
import base64
import contextlib
import hashlib
import importlib
import json
import os
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

# The engine's compiler, as re.compile runs it (CPython 3.11 and later; no type stubs describe these modules).
_sre: Any
_compiler: Any
_parser: Any
try:
    _sre, _compiler, _parser = (importlib.import_module(m) for m in ("_sre", "re._compiler", "re._parser"))
except ImportError:  # another interpreter: patterns compile as usual
    _sre = None

__all__ = ["PatternCache", "cache_file"]

CACHE_ENV = "GPUOPS_CACHE_DIR"
_CODE_TYPE = "I" if getattr(_sre, "CODESIZE", 4) == 4 else "H"


# What a damaged or foreign program raises on its way to the engine (the engine's own refusal is a RuntimeError).
_DAMAGED = (TypeError, ValueError, RuntimeError, IndexError, KeyError, AttributeError, OverflowError)


def cache_file() -> Path | None:
    """Where this interpreter's compiled patterns are kept: ``$GPUOPS_CACHE_DIR``, else ``$XDG_CACHE_HOME/gpuops``,
    else ``~/.cache/gpuops``; None on an interpreter whose compiler is not the one read here."""
    if _sre is None:
        return None
    base = os.environ.get(CACHE_ENV) or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "gpuops")
    tag = hashlib.sha256(f"{sys.implementation.cache_tag}|{sys.version}|{_sre.MAGIC}|{_sre.CODESIZE}".encode())
    return Path(base) / f"patterns-{tag.hexdigest()[:16]}.json"


def _key(pattern: str, flags: int) -> str:
    return hashlib.sha256(f"{flags}:{pattern}".encode()).hexdigest()[:32]


class PatternCache:
    """Compiled programs by pattern, read from ``path``; ``compile`` is ``re.compile`` that uses and fills them."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.programs: dict[str, list[Any]] = {}
        self.added = False
        if path is not None:
            with contextlib.suppress(OSError, ValueError):
                read = json.loads(path.read_text(encoding="utf-8"))
                if isinstance(read, dict):
                    self.programs = read

    def compile(self, pattern: str, flags: int = 0) -> re.Pattern[str]:
        flags = int(flags)
        if not flags & re.ASCII:
            flags |= re.UNICODE  # as the engine takes a text pattern's flags: one program for both spellings
        key = _key(pattern, flags)
        program = self.programs.get(key)
        if program is not None:
            try:
                return _build(pattern, program)
            except _DAMAGED:  # a program the engine refuses, or no program at all: made again
                del self.programs[key]
        try:
            self.programs[key] = program = _program(pattern, flags)
            compiled = _build(pattern, program)
        except _DAMAGED:
            return re.compile(pattern, flags)  # what the engine's compiler here does not give as expected
        self.added = True
        return compiled

    def save(self) -> None:
        """Write the programs back when this run added any (atomically: a run reading meanwhile sees either file);
        a cache that cannot be written is left as it is."""
        if self.path is None or not self.added:
            return
        with contextlib.suppress(OSError):
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, temporary = tempfile.mkstemp(dir=self.path.parent, prefix=".patterns-", suffix=".tmp")
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as handle:
                    json.dump(self.programs, handle, separators=(",", ":"))
                os.replace(temporary, self.path)
            finally:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(temporary)


def _program(pattern: str, flags: int) -> list[Any]:
    """What ``re._compiler.compile`` hands the engine for ``pattern``: its flags, code, groups and group names."""
    assert _sre is not None
    parsed = _parser.parse(pattern, flags)
    code = _compiler._code(parsed, flags)
    names = dict(parsed.state.groupdict)
    return [flags | parsed.state.flags, base64.b64encode(array.array(_CODE_TYPE, code).tobytes()).decode("ascii"),
            parsed.state.groups - 1, names]


def _build(pattern: str, program: list[Any]) -> re.Pattern[str]:
    assert _sre is not None
    flags, packed, groups, names = program
    code = array.array(_CODE_TYPE)
    code.frombytes(base64.b64decode(packed))
    index: list[str | None] = [None] * (groups + 1)
    for name, at in names.items():
        index[at] = name
    compiled: re.Pattern[str] = _sre.compile(pattern, flags, code.tolist(), groups, names, tuple(index))
    return compiled
