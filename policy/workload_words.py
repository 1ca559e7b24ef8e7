"""What kind of work a request describes beyond its size: a named base model, a mixture of experts, preference
tuning, RLHF, distillation from a teacher. Read before the numbers, so "llama-3.1-70b" or "70b teacher" is never
read again as the model's size.

See docs/design.md §The request. ``policy.parse`` calls ``read_workload`` and blanks the spans it returns.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from policy.models import model_in_text
from policy.request import Task

__all__ = [
    "DEFAULT_EXPERTS_PER_TOKEN",
    "EXPERT_FFN_SHARE",
    "merge_workload",
    "moe_params",
    "read_workload",
    "WorkloadReading",
]

_F = re.IGNORECASE
_SCALE = {"m": Decimal(10) ** 6, "b": Decimal(10) ** 9, "t": Decimal(10) ** 12}
_SIZE = r"(?P<n>\d+(?:\.\d+)?)\s*(?P<s>[mbt])\b"
# Mixtral-style models route each token to 2 of their experts (Jiang et al. 2024, arXiv 2401.04088), and in a
# Mistral-7B-shaped block the MLP holds 78% of the parameters (32 layers × 3 × 4096 × 14336 of 7.24B): only that
# share is copied per expert. "8x7B" is then 0.22·7B + 8·0.78·7B ≈ 45B in memory, 0.22·7B + 2·0.78·7B ≈ 12.5B per
# token (Mixtral 8x7B's config: 46.7B and 12.9B).
EXPERT_FFN_SHARE = 0.78
DEFAULT_EXPERTS_PER_TOKEN = 2

_MOE_RE = re.compile(r"(?<![\w.])(?P<e>\d{1,3})\s*[x×]\s*(?P<n>\d+(?:\.\d+)?)\s*(?P<s>[mbt])\b", _F)
_TEACHER_RE = re.compile(
    r"\bfrom\s+(?:an?\s+|the\s+|our\s+)?" + _SIZE + r"(?:\s+(?:model|params?))?\s+teacher\b"
    r"|\bteacher(?:\s+model)?(?:\s+(?:of|is|=|:))?\s+" + _SIZE.replace("<n>", "<n2>").replace("<s>", "<s2>")
    + r"|\bfrom\s+(?:an?\s+|the\s+)?" + _SIZE.replace("<n>", "<n3>").replace("<s>", "<s3>") + r"(?=\s|$|[,.;)])",
    _F,
)
_FROM_RE = re.compile(r"\b(?:from|teacher(?:\s+model)?:?)\s+(?:an?\s+|the\s+|our\s+)?", _F)
_DISTILL_RE = re.compile(r"\bdistil(?:l|ls|led|ling|lation)?\b", _F)
_DPO_RE = re.compile(r"\b(?:dpo|ipo|kto|orpo|simpo|preference[\s-]+(?:tuning|optimi[sz]ation|training))\b", _F)
_RLHF_RE = re.compile(r"\b(?:rlhf|ppo|grpo|rlaif|reinforcement\s+learning\s+from\s+human\s+feedback)\b", _F)


@dataclass(slots=True)
class WorkloadReading:
    """Fields read, the spans they came from (for the parser to blank) and what was interpreted."""

    fields: dict[str, Any] = field(default_factory=dict)
    spans: list[tuple[int, int]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def moe_params(experts: int, expert_params: float, per_token: int = DEFAULT_EXPERTS_PER_TOKEN) -> tuple[int, int]:
    """(total, active) parameters of an ``experts``×``expert_params`` mixture of experts."""
    shared = expert_params * (1.0 - EXPERT_FFN_SHARE)
    ffn = expert_params * EXPERT_FFN_SHARE
    return round(shared + experts * ffn), round(shared + min(per_token, experts) * ffn)


def read_workload(text: str) -> WorkloadReading:
    """The named model, mixture of experts, teacher and task words in ``text``."""
    out = WorkloadReading()
    _read_teacher(text, out)
    named = model_in_text(_blanked(text, out.spans))
    if named is not None:
        model, span = named
        out.fields |= {"model": model.name, "params": model.params}
        if model.active_params is not None:
            out.fields["active_params"] = model.active_params
        out.spans.append(span)
        # the size first: a reader shown only the note's first clause learns what the name stands for
        out.notes.append(f"read '{text[span[0]:span[1]]}' as {_size(model.params)} parameters"
                         + (f", {_size(model.active_params)} active per token" if model.active_params else "")
                         + f" ({model.name})")
    else:
        _read_moe(_blanked(text, out.spans), out)
    task = _task(text)
    if task is not None:
        out.fields["task"] = task
    return out


def _read_teacher(text: str, out: WorkloadReading) -> None:
    if not _DISTILL_RE.search(text):
        return
    m = _TEACHER_RE.search(text)
    if m is None:
        _read_named_teacher(text, out)
        return
    n = m["n"] or m["n2"] or m["n3"]
    s = (m["s"] or m["s2"] or m["s3"]).lower()
    value = int(Decimal(n) * _SCALE[s])
    out.fields["teacher_params"] = value
    out.spans.append(m.span())
    out.notes.append(f"read '{m.group(0).strip()}' as the teacher: {_size(value)} parameters, forward passes only")


def _read_named_teacher(text: str, out: WorkloadReading) -> None:
    """ "distill llama-3.1-8b from llama-3.1-70b": the model named after "from" is the teacher."""
    for m in _FROM_RE.finditer(text):
        named = model_in_text(text[m.end():])
        if named is None or named[1][0] != 0:
            continue
        model, (_, end) = named
        out.fields["teacher_params"] = model.params
        out.spans.append((m.start(), m.end() + end))
        out.notes.append(f"read '{text[m.start():m.end() + end]}' as the teacher: {model.name}, "
                         f"{_size(model.params)} parameters, forward passes only")
        return


def _read_moe(text: str, out: WorkloadReading) -> None:
    m = _MOE_RE.search(text)
    if m is None:
        return
    experts = int(m["e"])
    if experts < 2:
        return
    total, active = moe_params(experts, float(Decimal(m["n"]) * _SCALE[m["s"].lower()]))
    out.fields |= {"params": total, "active_params": active}
    out.spans.append(m.span())
    out.notes.append(f"read '{m.group(0)}' as a mixture of {experts} experts: ~{_size(total)} parameters in memory, "
                     f"~{_size(active)} active per token (top-{DEFAULT_EXPERTS_PER_TOKEN} routing)")


def _task(text: str) -> Task | None:
    if _RLHF_RE.search(text):
        return Task.RLHF
    if _DPO_RE.search(text):
        return Task.DPO
    if _DISTILL_RE.search(text):
        return Task.DISTILL
    return None


def merge_workload(fields: dict[str, Any], reading: WorkloadReading, notes: list[str]) -> dict[str, Any]:
    """The parser's fields with the workload reading laid over them.

    A size the text states elsewhere wins over a named model's; DPO, RLHF and distillation win over "fine-tune"
    (the words they are said with), and LoRA or QLoRA said with them becomes the adapter they train through.
    """
    merged = dict(fields)
    read = reading.fields
    notes.extend(reading.notes)
    for key in ("model", "active_params", "teacher_params"):
        if key in read:
            merged[key] = read[key]
    if "params" in read and merged.get("params") is None:
        merged["params"] = read["params"]
    elif "params" in read and "active_params" in read and merged["params"] != read["params"]:
        merged.pop("active_params")  # a size said outright is a dense model's
    task = read.get("task")
    if task is not None:
        said = merged.get("task")
        if said in (Task.LORA, Task.QLORA):
            merged["adapter"] = said
        if said is not Task.SWEEP:
            merged["task"] = task
            notes[:] = [n for n in notes if not n.endswith("as fine-tuning")]  # the parser's reading, now refined
            notes.append(f"costed as {task.value}" + (f" through {said.value} adapters" if said in
                                                      (Task.LORA, Task.QLORA) else ""))
    return merged


def _blanked(text: str, spans: list[tuple[int, int]]) -> str:
    for start, end in spans:
        text = text[:start] + " " * (end - start) + text[end:]
    return text


def _size(value: float) -> str:
    for size, suffix in ((1e12, "T"), (1e9, "B"), (1e6, "M")):
        if value >= size:
            return f"{value / size:.3g}{suffix}"
    return f"{value:g}"
