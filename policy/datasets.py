"""Public datasets by name, with their published size: "on OpenWebText" is 9.04B tokens, "on Alpaca" 52,002 examples.

The table is data (``policy/data/datasets.json``), each row with the figure its publisher states for the training split
and the tokenizer that figure is counted in (another tokenizer counts the same text somewhat differently). A name that
is also a word ("pile", "dolly", "alpaca", "shakespeare") is a dataset only where it is said as data: after "on",
"over", "using", "with" or "from", or before "dataset", "data" or "corpus", and never before a model's size ("alpaca
7b" is a model).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources

from pydantic import BaseModel, ConfigDict, Field, model_validator

from policy.patterns import compiled_on_use

__all__ = ["dataset_in_text", "DatasetSpec", "load_datasets", "NamedDataset"]

DATASETS_FILE = "datasets.json"  # in the ``policy.data`` package


class DatasetSpec(BaseModel):
    """One dataset's published size: its tokens (with the tokenizer they are counted in) or its examples."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    aliases: tuple[str, ...]
    tokens: int | None = Field(default=None, gt=0)
    tokenizer: str | None = None
    examples: int | None = Field(default=None, gt=0)
    needs_context: bool = False  # the name is also a word: a dataset only where said as data
    pairs: bool = False  # each example a preference pair, a chosen and a rejected answer (DPO's, a reward model's)
    source: str

    @model_validator(mode="after")
    def _one_size(self) -> DatasetSpec:
        if (self.tokens is None) == (self.examples is None):
            raise ValueError(f"{self.name}: give tokens or examples, not both or neither")
        if self.tokens is not None and not self.tokenizer:
            raise ValueError(f"{self.name}: tokens are counted in a tokenizer; name it")
        if self.pairs and self.examples is None:
            raise ValueError(f"{self.name}: preference pairs are counted in examples; give them")
        return self


class _Table(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    source: str
    as_of: str
    datasets: tuple[DatasetSpec, ...]


@dataclass(frozen=True)
class NamedDataset:
    """A dataset named in a text, and where: (start, end) of the name as said."""

    spec: DatasetSpec
    span: tuple[int, int]


@cache
def load_datasets() -> tuple[DatasetSpec, ...]:
    """The shipped table of datasets."""
    data = resources.files("policy.data").joinpath(DATASETS_FILE).read_text(encoding="utf-8")
    return _Table.model_validate(json.loads(data)).datasets


_DATA_BEFORE = r"(?P<data>\b(?:on|over|using|with|from|of)\s+(?:the\s+|our\s+(?:copy\s+of\s+(?:the\s+)?)?)?)?"
_DATA_AFTER_RE = compiled_on_use(r"[\s-]+(?:dataset|data\b|corpus|set\b)", re.IGNORECASE)
# "alpaca 7b", "dolly-v2-12b": a model of that name, with its size
_MODEL_SIZE_AFTER = r"(?![\s-]*(?:v\d+[\s-]*)?\d+(?:\.\d+)?\s*[bm]\b)"


@cache
def _patterns() -> tuple[tuple[re.Pattern[str], DatasetSpec], ...]:
    """One pattern a dataset, longest spellings first across the table, so "the pile deduped" is not "the pile"."""
    spelled: list[tuple[str, DatasetSpec]] = [(a, spec) for spec in load_datasets() for a in spec.aliases]
    spelled.sort(key=lambda pair: len(pair[0]), reverse=True)
    out = []
    for alias, spec in spelled:
        name = r"[\s_-]*".join(re.escape(part) for part in re.split(r"[\s_-]+", alias))
        pattern = rf"{_DATA_BEFORE}(?<![\w.-])(?P<name>{name})(?![\w-]){_MODEL_SIZE_AFTER}"
        out.append((re.compile(pattern, re.IGNORECASE), spec))
    return tuple(out)


_WORDS = ("openwebtext", "open web", "open-web", "shakespeare", "pile", "fineweb", "fine web", "fine-web",
          "pajama", "alpaca", "dolly", "ultrafeedback", "ultra feedback", "ultra-feedback")


def dataset_in_text(text: str) -> NamedDataset | None:
    """The first dataset of the table named in ``text``, or None."""
    lowered = text.lower()
    if not any(word in lowered for word in _WORDS):
        return None
    found = []
    for pattern, spec in _patterns():
        for m in pattern.finditer(text):
            if not spec.needs_context or m["data"] or _DATA_AFTER_RE.match(text, m.end()):
                found.append(NamedDataset(spec, m.span("name")))
                break
    if not found:
        return None
    first = min(found, key=lambda named: named.span[0])
    # of the names said over the same words, the longest: "the Pile deduped" over "the Pile"
    return max((n for n in found if n.span[0] < first.span[1]), key=lambda named: named.span[1])
