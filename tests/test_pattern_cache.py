"""`gpuops plan` keeps the parser's compiled patterns between runs: what it builds from the kept programs behaves as
`re.compile` does, and a cache that is damaged, refused or unwritable only ever costs a compile."""

from __future__ import annotations

import gc
import importlib
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gpuops.cli import app
from gpuops.pattern_cache import PatternCache, cache_file
from policy.patterns import _OnUse, compiled_on_use, use_compiler
from tests.policy.test_parse import PARSES, REFUSALS

TEXTS = [text for text, *_ in PARSES + REFUSALS] + [
    "fine-tune SDXL on 20k product images", "LoRA on llama 3 70b, 200M tokens, use trainium if cheaper",
    "RLHF (PPO) on our 13B chat model with 50k prompts of 512 tokens, 4 rollouts each",
    "Fine tune Llama-3.3-70B-Instruct w/ QLoRA on ~300k instruction pairs (avg 1k tokens) - need by Dec 15, max $3k",
    "pretrain a 2B MoE (16 experts, 4 active) on 40B tokens in eu-west-1 (data residency), cost center ML-4411",
]


def _every_policy_pattern() -> list[tuple[str, int]]:
    for module in ("policy.parse", "policy.questions", "policy.tree"):  # the parser and what it reads with
        importlib.import_module(module)
    return sorted({(o.pattern, int(o.flags)) for o in gc.get_objects() if isinstance(o, _OnUse)})


def _matches(pattern: re.Pattern[str]) -> list[tuple[tuple[int, int], tuple[str | None, ...]]]:
    return [(m.span(), m.groups()) for text in TEXTS for m in pattern.finditer(text)]


def test_every_parser_pattern_built_from_a_kept_program_matches_as_re_compile_does(tmp_path: Path) -> None:
    patterns = _every_policy_pattern()
    assert len(patterns) > 250
    filling = PatternCache(tmp_path / "patterns.json")
    for source, flags in patterns:
        filling.compile(source, flags)
    filling.save()
    kept = PatternCache(tmp_path / "patterns.json")
    for source, flags in patterns:
        built, compiled = kept.compile(source, flags), re.compile(source, flags)
        assert (built.pattern, built.flags, built.groups, built.groupindex) == (
            compiled.pattern, compiled.flags, compiled.groups, compiled.groupindex), source
        assert _matches(built) == _matches(compiled), source
    assert not kept.added  # every one came from the file


def test_a_damaged_file_is_compiled_past_and_written_again(tmp_path: Path) -> None:
    path = tmp_path / "patterns.json"
    path.write_text("{not json", encoding="utf-8")
    cache = PatternCache(path)
    assert cache.compile(r"\b(?P<n>\d+)\s*gpus?\b", re.IGNORECASE).search("on 8 GPUs")["n"] == "8"
    cache.save()
    assert len(json.loads(path.read_text(encoding="utf-8"))) == 1


def test_a_program_the_engine_refuses_is_compiled_again(tmp_path: Path) -> None:
    path = tmp_path / "patterns.json"
    cache = PatternCache(path)
    cache.compile(r"spot\s+ok", re.IGNORECASE)
    cache.save()
    tampered = json.loads(path.read_text(encoding="utf-8"))
    for program in tampered.values():
        program[1] = "AAAAAAAAAAA="  # code the engine's validator rejects
    path.write_text(json.dumps(tampered), encoding="utf-8")
    again = PatternCache(path)
    assert again.compile(r"spot\s+ok", re.IGNORECASE).search("Spot OK, by Friday") is not None
    assert again.added


@pytest.mark.parametrize("program", [[], "text", [0, "!!", 0, {}], [32, "AAAA", 7, {"n": 99}], [32, "AAAA", 0, []],
                                     [2**70, "AAAA", 0, {}]])
def test_a_program_of_any_other_shape_is_compiled_again(tmp_path: Path, program: object) -> None:
    path = tmp_path / "patterns.json"
    cache = PatternCache(path)
    cache.compile(r"(?P<n>\d+)x", re.IGNORECASE)
    cache.save()
    damaged = dict.fromkeys(json.loads(path.read_text(encoding="utf-8")), program)
    path.write_text(json.dumps(damaged), encoding="utf-8")
    assert PatternCache(path).compile(r"(?P<n>\d+)x", re.IGNORECASE).match("8X")["n"] == "8"


def test_a_folder_that_cannot_be_written_leaves_compiling_as_it_is(tmp_path: Path) -> None:
    blocked = tmp_path / "file-not-folder"
    blocked.write_text("", encoding="utf-8")
    cache = PatternCache(blocked / "patterns.json")
    assert cache.compile(r"a+").fullmatch("aaa") is not None
    cache.save()  # no error: the next run compiles again
    assert not (blocked / "patterns.json").exists()


def test_the_file_is_named_for_the_interpreter_and_lives_where_it_is_told(monkeypatch: pytest.MonkeyPatch,
                                                                          tmp_path: Path) -> None:
    monkeypatch.setenv("GPUOPS_CACHE_DIR", str(tmp_path))
    path = cache_file()
    assert path is not None and path.parent == tmp_path and path.name.startswith("patterns-")
    monkeypatch.delenv("GPUOPS_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_file() == tmp_path / "xdg" / "gpuops" / path.name


def test_gpuops_plan_keeps_its_patterns_and_plans_the_same_from_them(monkeypatch: pytest.MonkeyPatch,
                                                                     tmp_path: Path) -> None:
    monkeypatch.setenv("GPUOPS_CACHE_DIR", str(tmp_path))
    args = ["plan", "LoRA 13B on 2B tokens by Friday, spot ok", "--json", "--now", "2026-11-30T09:00", "--tz",
            "America/Los_Angeles"]
    saved = use_compiler(re.compile)  # patterns this process compiled already stay as they are
    try:
        _compile_again()
        first = CliRunner().invoke(app, args)
        path = cache_file()
        assert path is not None and path.exists()
        kept = path.read_bytes()
        _compile_again()
        second = CliRunner().invoke(app, args)
    finally:
        use_compiler(saved)
    assert first.exit_code == second.exit_code == 0, first.output
    assert first.output == second.output
    assert path.read_bytes() == kept  # the second run found every pattern it used
    assert len(json.loads(kept)) >= 30


def _compile_again() -> None:
    """Forget every policy pattern's compiled form, as a new process starts without them."""
    for o in gc.get_objects():
        if isinstance(o, _OnUse):
            for name in [n for n in vars(o) if n not in ("pattern", "flags")]:
                delattr(o, name)


def test_the_command_leaves_the_parser_compiling_as_before() -> None:
    probe = compiled_on_use(r"probe-\d+")
    before = use_compiler(re.compile)
    use_compiler(before)
    result = CliRunner().invoke(app, ["plan", "fine-tune 7B by Friday", "--json", "--now", "2026-11-30T09:00"])
    assert result.exit_code == 0, result.output
    assert use_compiler(before) is before and probe.match("probe-7") is not None
