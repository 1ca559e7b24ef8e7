"""Base models by name: their shape, which feeds the workload model, and where their weights come from.

The table is data (``policy/data/models.json``, each row from the model's published ``config.json``). A mixture of
experts has ``active_params`` (what one token passes through: compute follows it) beside ``params`` (what memory
holds); a dense model's active parameters are all of them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from functools import cache
from importlib import resources
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from policy.patterns import compiled_on_use

__all__ = ["family_members", "find_model", "image_model_in_text", "image_model_span", "load_models", "model_in_text",
           "ModelCatalog", "ModelKind", "models_in_text", "ModelSpec", "sized_image_model"]

MODELS_FILE = "models.json"  # in the ``policy.data`` package

# What a model is, as a training script loads it: a decoder that predicts the next token (most language models), a
# text encoder (BERT, BGE), an encoder-decoder (T5), a speech model (Whisper) or a vision transformer (ViT).
ModelKind = Literal["causal-lm", "encoder", "encoder-decoder", "speech", "vision"]


class ModelSpec(BaseModel):
    """One base model's published shape."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str  # canonical id, e.g. "llama-3.1-8b"
    aliases: tuple[str, ...] = ()
    hub_id: str  # where a recipe finds the weights when no S3 copy is configured
    params: int = Field(gt=0)  # total parameters (memory)
    active_params: int | None = Field(default=None, gt=0)  # per token, for a mixture of experts (compute)
    layers: int = Field(gt=0)
    d_model: int = Field(gt=0)
    heads: int = Field(gt=0)
    kv_heads: int = Field(gt=0)
    ffn: int = Field(gt=0)
    vocab: int = Field(gt=0)
    max_context: int = Field(gt=0)
    experts: int | None = None
    experts_per_token: int | None = None
    # A vision transformer's patch side in pixels: its tokens are image patches (max_context: those of a 224-pixel
    # image, with the class token). None for a model of text or sound.
    patch_size: int | None = Field(default=None, gt=0, le=64)
    kind: ModelKind = "causal-lm"

    @property
    def compute_params(self) -> int:
        """Parameters each token's forward and backward pass touches."""
        return self.active_params or self.params

    @property
    def is_moe(self) -> bool:
        return self.experts is not None


class ModelCatalog(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    source: str
    as_of: str
    models: tuple[ModelSpec, ...]


def _key(name: str) -> str:
    """Spelling-insensitive key: "Llama 3.1 8B", "llama-3.1-8b" and "llama3.1_8b" meet."""
    return re.sub(r"[^a-z0-9.]+", "", name.lower())


@cache
def load_models() -> ModelCatalog:
    """The shipped table of base models."""
    data = resources.files("policy.data").joinpath(MODELS_FILE).read_text(encoding="utf-8")
    return ModelCatalog.model_validate(json.loads(data))


@cache
def _index() -> dict[str, ModelSpec]:
    index: dict[str, ModelSpec] = {}
    for model in load_models().models:
        for spelling in (model.name, model.hub_id, model.hub_id.split("/")[-1], *model.aliases):
            index.setdefault(_key(spelling), model)
    return index


# Variants of a family trained for something else than the family's plain models ("qwen2.5-coder", "llama-3.2-vision")
_VARIANT_RE = compiled_on_use(r"coder|math|vl\b|vision|distill|instruct|chat|guard", re.IGNORECASE)


def family_members(said: str) -> list[ModelSpec]:
    """The dense language models of the family ``said`` names ("mistral", "llama 3", "qwen2.5"), one per size, in the
    table's order (newest first within a family), without variants trained for another purpose: what a family named
    with no size may mean."""
    prefix = _key(said)
    found: dict[int, ModelSpec] = {}
    for model in load_models().models:
        if (_key(model.name).startswith(prefix) and model.kind == "causal-lm" and not model.is_moe
                and model.patch_size is None and not _VARIANT_RE.search(model.name)):
            found.setdefault(round(model.params, -7), model)  # 8.03B said once, by the first of that size
    return list(found.values())


def find_model(name: str) -> ModelSpec | None:
    """The model called ``name`` (canonical id, alias or Hugging Face id, any case or separator), or None."""
    return _index().get(_key(name))


@cache
def _spellings() -> list[list[str]]:
    """Every spelling of every model (name, Hugging Face id, aliases), split into its parts."""
    spellings = {s for m in load_models().models for s in (m.name, m.hub_id, *m.aliases)}
    return [re.split(r"[\s_-]+", s) for s in spellings]


@cache
def _pattern() -> re.Pattern[str]:
    # Separators between a spelling's parts may be any run of spaces, hyphens or underscores; longest first so
    # "llama-3.1-70b" wins over "llama 3".
    parts = [r"[\s_-]*".join(re.escape(p) for p in spelling) for spelling in _spellings()]
    parts.sort(key=len, reverse=True)
    # not a name's first part before a patch ("ViT-B" of "ViT-B/32"); "8b/70b" names a size after it
    return re.compile(r"(?<![\w.])(?:" + "|".join(parts) + r")(?![\w.])(?!/\d{1,2}(?![\w.]))", re.IGNORECASE)


@cache
def _first_parts() -> re.Pattern[str]:
    """Where a spelling can start: its first part ("llama", "qwen2.5", "meta"), read as ``_pattern`` reads it.

    Every match of ``_pattern`` begins with one, so a text with none names no model. Most requests name a size, not a
    model, and this small pattern spares them the whole alternation, the costliest pattern the parser compiles.
    """
    firsts = sorted({re.escape(spelling[0]) for spelling in _spellings()})
    return re.compile(r"(?<![\w.])(?:" + "|".join(firsts) + ")", re.IGNORECASE)


def _named_models(text: str) -> Iterator[re.Match[str]]:
    """Each named model's spelling in ``text``, in order."""
    if _first_parts().search(text) is None:
        return iter(())
    return _pattern().finditer(text)


def model_in_text(text: str) -> tuple[ModelSpec, tuple[int, int]] | None:
    """The first named base model in free text and where it was found (start, end), or None."""
    match = next(_named_models(text), None)
    if match is None:
        return None
    model = _model_of(match.group(0))
    return (model, match.span()) if model is not None else None


def models_in_text(text: str) -> list[tuple[ModelSpec, tuple[int, int]]]:
    """Every named base model in free text, in order, each with where it was found."""
    found = []
    for match in _named_models(text):
        model = _model_of(match.group(0))
        if model is not None:
            found.append((model, match.span()))
    return found


def _model_of(spelling: str) -> ModelSpec | None:
    model = find_model(spelling)
    if model is None:  # a separator spelling the index does not hold: fall back to the compact key
        compact = _key(spelling)
        model = next((m for m in load_models().models if compact in {_key(s) for s in (m.name, *m.aliases)}), None)
    return model


# Image models the table does not hold. Diffusion models and convolutional networks: their cost follows image size,
# denoising steps and layer shapes rather than parameters × tokens. Vision transformers: their tokens are image patches.
_NOT_PER_TOKEN_RE = compiled_on_use(
    r"(?<![\w-])(?:stable[\s-]?diffusion(?:[\s-]?(?:xl|[123](?:\.[15])?))?|sdxl(?:[\s-]turbo)?|sd[\s-]?(?:1\.[45]|2(?:\.1)?"
    r"|3(?:\.5)?)|dreambooth|controlnet|u-?net|dall-?e(?:[\s-]?[23])?|imagen|flux(?:\.1)?(?:[\s-](?:dev|schnell|pro))?"
    r"|kandinsky|pixart(?:[\s-]\w+)?|resnet[\s-]?\d{0,3}|efficientnet(?:[\s-]?\w+)?|yolo(?:v?\d{1,2}\w?)?"
    r"|convnext(?:v2)?|mask[\s-]?r-?cnn|faster[\s-]?r-?cnn|mobilenet(?:[\s-]?v\d)?)(?![\w-])", re.IGNORECASE)
_VISION_TRANSFORMER_RE = compiled_on_use(
    r"(?<![\w-])(?:vit(?:[\s-]?(?:ti|s|b|l|h|g|small|base|large|huge)(?:/\d{1,2})?)?|clip(?:[\s-]vit\S*)?|siglip2?"
    r"|dino(?:v2|v3)?|detr|swin(?:[\s-]\w+)?|segment[\s-]anything)(?![\w-])", re.IGNORECASE)


def _image_model(text: str) -> tuple[re.Match[str], bool] | None:
    """The first image model ``text`` names that the table does not size, and whether its cost follows parameters ×
    tokens (a vision transformer's tokens are image patches: True) or not (a diffusion model or a CNN: False)."""
    if (m := _NOT_PER_TOKEN_RE.search(text)) is not None:
        return m, False
    if (m := _VISION_TRANSFORMER_RE.search(text)) is not None:
        return m, True
    return None


def image_model_span(text: str) -> tuple[int, int] | None:
    """Where ``text`` names an image model the table does not size (``image_model_in_text``), or None."""
    found = _image_model(text)
    return None if found is None else found[0].span()


# A size said right beside an image model's name: "a 2.6B SDXL", "a 100M-param ViT", "ResNet-50 (25M)", "ViT-L, 300M
# params"; a size further off is another model's ("a 7B LLM to write stable diffusion prompts")
_SIZE = r"\d+(?:\.\d+)?\s*(?:[mb]|million|billion)(?:[\s-]+param(?:eter)?s?)?"
_SIZE_BEFORE_RE = compiled_on_use(rf"(?<![\w.]){_SIZE}[\s-]*$", re.IGNORECASE)
_SIZE_AFTER_RE = compiled_on_use(rf"\s*[,(]?\s*(?:with\s+|at\s+|of\s+)?{_SIZE}(?![\w-])", re.IGNORECASE)


def sized_image_model(text: str) -> tuple[str, bool] | None:
    """An image model the table does not size named with a size beside it (``image_model_in_text``'s answer), so the
    size is that model's; None otherwise."""
    found = _image_model(text)
    if found is None:
        return None
    m, per_token = found
    beside = _SIZE_BEFORE_RE.search(text, max(0, m.start() - 30), m.start()) or _SIZE_AFTER_RE.match(text, m.end())
    return (" ".join(m.group(0).split()), per_token) if beside else None


def image_model_in_text(text: str) -> tuple[str, bool] | None:
    """An image model the text names that the table does not size, as said, and whether its cost follows
    parameters × tokens (``_image_model``); None when it names none."""
    found = _image_model(text)
    return None if found is None else (" ".join(found[0].group(0).split()), found[1])
