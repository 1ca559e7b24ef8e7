"""The job in Slack: what an approver approves (recipe, image digest, entry point, model, data, the hyperparameters
that differ from the recipe's defaults) and the Edit modal's inputs for it."""

from __future__ import annotations

import re
from typing import Any

from bot.limits import Block, escape, section, text_input
from policy.decision import Decision
from policy.jobspec import JobSpec

JOB_INPUTS = ("recipe", "dataset", "model", "hyperparameters")
_SETTING = re.compile(r"^\s*([A-Za-z][A-Za-z0-9_]{0,63})\s*=\s*(\S.*?)\s*$")


def _size(value: int | None) -> str:
    if value is None:
        return "size not read"
    for unit, scale in (("TB", 1e12), ("GB", 1e9), ("MB", 1e6), ("KB", 1e3)):
        if value >= scale:
            return f"{value / scale:.3g} {unit}"
    return f"{value} bytes"


def _image(job: JobSpec) -> str:
    if job.image_digest is None:
        return f"`{escape(job.image)}` (digest read when filed)"
    return f"`{escape(job.image)}`"  # the whole digest: what runs, not a prefix of it


def job_lines(job: JobSpec) -> list[str]:
    """The job as an approver reads it, one fact a line."""
    source = f" from `{escape(job.source)}`" if job.source else " (in the image)"
    model = (f"{escape(job.model)} (`{escape(job.model_source or '')}`)" if job.model
             else "none named")
    changed = [f"`{escape(name)}={escape(str(job.hyperparameters[name]))}`" for name in job.overrides
               if name in job.hyperparameters]
    return [
        f"*Recipe* `{escape(job.recipe)}` · image {_image(job)}",
        f"*Runs* `{escape(job.entry_point)}`{source} · {escape(job.distribution)}",
        f"*Model* {model}",
        f"*Data* `{escape(job.dataset)}` ({_size(job.dataset_bytes)})",
        "*Hyperparameters changed* " + (", ".join(changed) if changed else "none (the recipe's defaults)"),
    ]


def recipes_text(team: dict[str, Any]) -> str:
    """A team's recipes as `/gpu policy` lists them (the policy's JSON), the default marked; empty when none."""
    recipes = sorted(team.get("recipes") or {})
    if not recipes:
        return ""
    default = team.get("default_recipe")
    return " · recipes: " + ", ".join(f"`{escape(r)}`" + (" (default)" if r == default else "") for r in recipes)


def job_blocks(decision: Decision) -> list[Block]:
    """The plan message's job section; none for a team without recipes."""
    if decision.job is None:
        return []
    return [section("🧾 *What runs*\n" + "\n".join(job_lines(decision.job)))]


def edit_job_blocks(decision: Decision) -> list[Block]:
    """The Edit modal's inputs for the job, filled with the current revision's."""
    job = decision.job
    if job is None:
        return []
    overrides = ", ".join(f"{n}={job.hyperparameters[n]}" for n in job.overrides if n in job.hyperparameters)
    return [
        text_input("recipe", "Recipe", job.recipe, "a recipe of your team; a wrong name is answered with the list"),
        text_input("dataset", "Dataset", job.dataset, "a dataset name of the recipe or s3://… under its prefixes"),
        text_input("model", "Base model", job.model, "e.g. llama-3-8b, mistral-7b"),
        text_input("hyperparameters", "Hyperparameter overrides", overrides, "name=value, separated by commas"),
    ]


def _value(values: dict[str, Any], block_id: str) -> str | None:
    value = values.get(block_id, {}).get(block_id, {}).get("value")
    return str(value).strip() if value else None


def edit_job_changes(values: dict[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    """The PATCH fields for the job inputs of a submitted Edit modal, and errors per input to show in the modal.
    Unchanged inputs are sent as they were shown, which names the same job."""
    changes: dict[str, Any] = {key: text for key in ("recipe", "dataset", "model")
                               if (text := _value(values, key)) is not None}
    errors: dict[str, str] = {}
    if (text := _value(values, "hyperparameters")) is not None:
        parsed: dict[str, str] = {}
        for part in text.split(","):
            match = _SETTING.match(part)
            if match is None:
                errors["hyperparameters"] = ("write name=value pairs separated by commas, e.g. lr=2e-5, epochs=2 "
                                             f"(could not read {part.strip()!r})")
                return changes, errors
            parsed[match.group(1)] = match.group(2)
        changes["hyperparameters"] = parsed
    return changes, errors


def error_input(message: str, *, present: dict[str, Any]) -> str | None:
    """The Edit modal input a service refusal names ("dataset: …", "hyperparameters.lr: …"), if the modal has it."""
    field = re.split(r"[:.]", message, maxsplit=1)[0]
    return field if field in JOB_INPUTS and field in present else None
