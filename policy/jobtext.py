"""What a request's text and fields say about the job itself: "with recipe sft", "on s3://bucket/chat-v3/", a base
model by name ("fine-tune llama-3-8b", "from mistral-7b") and "key=value" hyperparameters.

``read_job_phrases`` runs first on the text (``policy.parse``), blanking each phrase it reads so that the digits of
an S3 key are never read again as a size or a date. ``apply_job_fields`` then gathers the recipe,
dataset and hyperparameters (from the text and the structured fields, a field winning) into the request's ``job``
and takes the model's size from the model table when nothing else said it (``policy.intake``).
"""

from __future__ import annotations

import re
from collections.abc import MutableMapping
from typing import Any, Protocol

from policy.errors import RequestError
from policy.models import find_model, load_models
from policy.patterns import compiled_on_use
from policy.recipes import JobChoice

__all__ = ["apply_job_fields", "JOB_FIELDS", "read_job_phrases"]

_F = re.IGNORECASE
_RECIPE_RE = compiled_on_use(r"\b(?:with|using|use)\s+(?:the\s+)?recipe\s+(?P<name>[A-Za-z0-9][\w.-]*)"
                        # "…, recipe sft-llama": a recipe's name is one word with a dash, dot or digit in it
                        r"|\brecipe\s*[:=]\s*(?P<name2>[A-Za-z0-9][\w.-]*)"
                        r"|(?:^|(?<=[,;(]))\s*recipe\s+(?P<name3>[A-Za-z][\w]*[-.\d][\w.-]*)(?=\s*(?:$|[,;.)]))", _F)
# A container image in ECR, "123456789012.dkr.ecr.us-west-2.amazonaws.com/train:latest": one phrase, whole
_IMAGE_URI_RE = compiled_on_use(
    r"(?:\b(?:our\s+|the\s+|my\s+)?(?:docker|container|training)\s+image\s*:?\s*)?"
    r"\b\d{12}\.dkr\.ecr\.[a-z0-9-]+\.amazonaws\.com/[^\s,;'\"<>]+", _F)
# An AWS resource's name, "arn:aws:iam::123456789012:role/SageMakerExec", "arn:aws:sns:us-west-2:…:ml-alerts"
_ARN_RE = compiled_on_use(r"\barn:aws[\w-]*:[a-z0-9-]+:[a-z0-9-]*:(?:\d{12})?:[^\s,;'\"<>]+", _F)
_S3_RE = compiled_on_use(r"(?:\b(?:on|from|with|using|over)\s+(?:data(?:set)?\s+)?)?(?P<uri>s3://[^\s,;'\"<>]+)", _F)


# Where the job starts from or writes to, not what it trains on: "resume from checkpoint s3://…", "save to s3://…".
_NOT_DATA_BEFORE_RE = compiled_on_use(
    r"\b(?:checkpoints?|ckpts?|resum\w*|restart\w*|init\w*|weights|outputs?|save\w*"
    r"|write|writes|writing|artifacts?|results?)\b[^,;.]{0,24}$", _F)


_SETTING_RE = compiled_on_use(
    r"(?<![\w.:/=-])(?P<key>[a-z][a-z0-9_]*)=(?P<value>[^\s,;()]+)", _F)  # "(r=16)": not its ")"
# Request fields, read by their own rules ("team=nlp", "seq_len=8192", "budget=5000"), never hyperparameters; the
# global batch ("bs=512") too, which with the steps said gives the tokens trained, and "spot=no", the tolerance.
_NOT_HYPERPARAMETERS = frozenset({"team", "region", "recipe", "task", "params", "tokens", "trials", "deadline",
                                  "stage", "seq_len", "seq", "context", "budget", "budget_usd", "gpus", "instances",
                                  "accelerator", "instance_type", "model", "dataset", "bs", "gbs", "batch",
                                  "batch_size", "global_batch_size", "spot",
                                  # the sequence length as trainers name it: read as the request's ("seq_len")
                                  "seq_length", "max_seq_len", "max_seq_length", "sequence_len", "sequence_length",
                                  "ctx", "ctx_len", "context_len", "context_length", "block_size", "cutoff_len",
                                  "model_max_length",
                                  # the epochs, which count the tokens trained ("epochs") and reach a recipe as {epochs}
                                  "epoch", "epochs", "num_epochs", "num_train_epochs", "n_epochs"})
JOB_FIELDS = ("recipe", "dataset", "hyperparameters")  # structured fields that fill ``job``


class _Scan(Protocol):
    text: str
    unused: list[str]  # phrases read that nothing of the plan uses: listed as not read

    def blank(self, start: int, end: int) -> None: ...

    def holds(self, words: tuple[str, ...]) -> bool: ...


def _take(scan: _Scan, pattern: re.Pattern[str]) -> list[re.Match[str]]:
    found = list(pattern.finditer(scan.text))
    for match in found:
        scan.blank(match.start(), match.end())
    return found


def read_job_phrases(scan: _Scan, notes: list[str]) -> dict[str, Any]:
    """The job phrases of the text as request fields (``job``, ``model``); each phrase is blanked once read."""
    job: dict[str, Any] = {}
    for m in _take(scan, _IMAGE_URI_RE):  # its region is the registry's, never where the job runs
        said = " ".join(m.group(0).split())
        scan.unused.append(said)
        notes.append(f"read '{said}' as a container image: the launch runs the image of the team's launch profile or "
                     "recipe, so a person checks this one")
    for m in _take(scan, _ARN_RE):  # "arn:aws:sns:us-west-2:…": the resource's region, never where the job runs
        scan.unused.append(m.group(0))
        notes.append(f"read '{m.group(0)}' as the name of an AWS resource: the launch uses what the team's launch "
                     "profile names, so a person checks this one")
    uris = []
    for m in _take(scan, _S3_RE) if scan.holds(("s3://",)) else ():
        uri = m["uri"].rstrip(".)")
        if _NOT_DATA_BEFORE_RE.search(scan.text, 0, m.start("uri")):
            scan.unused.append(uri)  # a checkpoint or output location: no job setting carries it, so a person looks
            continue
        uris.append(uri)
    if uris:
        job["dataset"] = uris[0]
        if len(set(uris)) > 1:
            notes.append(f"saw {len(set(uris))} S3 locations; took the first, {uris[0]}, as the dataset")
    named = _take(scan, _RECIPE_RE) if scan.holds(("recipe",)) else []
    recipes = [m["name"] or m["name2"] or m["name3"] for m in named]
    if recipes:
        job["recipe"] = recipes[0]
    settings = [m for m in _SETTING_RE.finditer(scan.text) if m["key"].lower() not in _NOT_HYPERPARAMETERS]
    for match in settings:
        scan.blank(match.start(), match.end())
    if settings:
        job["hyperparameters"] = {m["key"]: m["value"] for m in settings}
    # A named base model in the text is read with the rest of the work's shape (``policy.workload_words``).
    return {"job": job} if job else {}


def apply_job_fields(merged: MutableMapping[str, Any], notes: list[str]) -> None:
    """Gather ``recipe``, ``dataset`` and ``hyperparameters`` (structured fields win over the text's ``job``) into
    ``job``, and take ``params`` from a named model when nothing else gave them. Changes ``merged`` in place."""
    said = merged.pop("job", None) or {}
    job = dict(said.model_dump(exclude_defaults=True) if isinstance(said, JobChoice) else said)
    for name in JOB_FIELDS:
        value = merged.pop(name, None)
        if value is None:
            continue
        if name == "hyperparameters":
            value = {**job.get("hyperparameters", {}), **value}
        job[name] = value
    if job:
        merged["job"] = job
    model_name = merged.get("model")
    if model_name is None:
        return
    model = find_model(str(model_name))
    if model is None:
        known = ", ".join(m.name for m in load_models().models)
        raise RequestError(f"model: {model_name!r} is not in the model table; use one of: {known}",
                           code="unknown_model")
    merged["model"] = model.name
    if merged.get("params") is None:
        merged["params"] = model.params
        notes.append(f"params: {model.params / 1e9:.3g}B from the base model {model.name}")
