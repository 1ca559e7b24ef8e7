"""The parser's patterns are compiled when a text first needs them, not when `gpuops plan` imports the parser, and
each behaves exactly as the pattern ``re.compile`` makes."""

from __future__ import annotations

import importlib
import pathlib
import re
import subprocess
import sys

import pytest

from policy.patterns import compiled_on_use

ROOT = pathlib.Path(__file__).resolve().parents[2]
PARSING_MODULES = ("policy.parse", "policy.dates", "policy.reading", "policy.workload_words", "policy.jobtext",
                   "policy.describing", "policy.spelled", "policy.recipes", "policy.questions", "policy.jobspec")

# Counts the patterns compiled from policy/ while the parser is imported, in a fresh interpreter.
_COUNT_COMPILES = """
import re, sys
made = []
original = re.compile
def counting(pattern, flags=0):
    caller = sys._getframe(1).f_code.co_filename
    if "/policy/" in caller.replace("\\\\", "/"):
        made.append(caller)
    return original(pattern, flags)
re.compile = counting
import policy.parse, policy.intake, policy.tree
print(len(made))
"""


def test_a_pattern_used_finds_what_the_compiled_pattern_finds() -> None:
    source, text = r"(?P<n>\d+)\s*(?P<u>gpus?|nodes?)", "8 GPUs on 2 nodes, then 4 gpu"
    deferred, compiled = compiled_on_use(source, re.IGNORECASE), re.compile(source, re.IGNORECASE)

    assert deferred.search(text)[0] == compiled.search(text)[0] == "8 GPUs"
    assert [m.span() for m in deferred.finditer(text)] == [m.span() for m in compiled.finditer(text)]
    assert deferred.findall(text) == compiled.findall(text)
    assert deferred.sub("<n>", text) == compiled.sub("<n>", text)
    assert deferred.match(text, 14) is None and compiled.match(text, 14) is None
    assert deferred.fullmatch("2 nodes") is not None
    assert deferred.groupindex == compiled.groupindex and deferred.groups == compiled.groups == 2
    assert deferred.pattern == source


def test_a_pattern_is_not_compiled_before_it_is_used() -> None:
    deferred = compiled_on_use(r"(unbalanced")  # an error here would be raised at import if compiled eagerly

    assert deferred.pattern == "(unbalanced"
    with pytest.raises(re.error):
        deferred.search("text")


@pytest.mark.parametrize("name", PARSING_MODULES)
def test_every_deferred_pattern_of_the_parser_compiles(name: str) -> None:
    """A pattern compiled on first use would otherwise hide a mistake until the first text that reaches it."""
    module = importlib.import_module(name)
    deferred = {key: value for key, value in vars(module).items() if type(value).__name__ == "_OnUse"}
    listed = [pattern for value in vars(module).values() if isinstance(value, list | tuple)
              for item in value for pattern in (item if isinstance(item, tuple) else (item,))
              if type(pattern).__name__ == "_OnUse"]

    assert deferred or listed, f"{name} defers no pattern: this test would check nothing"
    for pattern in [*deferred.values(), *listed]:
        assert pattern.groups >= 0  # compiles, or raises re.error naming the pattern's mistake


def test_importing_the_parser_and_the_engine_compiles_almost_no_pattern() -> None:
    out = subprocess.run([sys.executable, "-c", _COUNT_COMPILES], capture_output=True, text=True, check=True,
                         cwd=ROOT)

    assert int(out.stdout) <= 5, "a pattern compiled at import: use policy.patterns.compiled_on_use"
