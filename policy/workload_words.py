"""What kind of work a request describes beyond its size: a named base model, a mixture of experts, preference
tuning, RLHF, distillation from a teacher. Read before the numbers, so "llama-3.1-70b" or "70b teacher" is never
read again as the model's size. In "distill X into Y", "X teacher … Y student" and "from X to Y", X is the teacher
and Y the student, the model trained, each said by size or by name.

See docs/design.md §The request. ``policy.parse`` calls ``read_workload`` and blanks the spans it returns.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from policy.errors import RequestError
from policy.models import ModelSpec, model_in_text, models_in_text
from policy.patterns import compiled_on_use
from policy.request import Task

__all__ = [
    "DEFAULT_EXPERTS_PER_TOKEN",
    "EXPERT_FFN_SHARE",
    "merge_workload",
    "moe_params",
    "other_size",
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

_MOE_RE = compiled_on_use(r"(?<![\w.])(?P<e>\d{1,3})\s*[x×]\s*(?P<n>\d+(?:\.\d+)?)\s*(?P<s>[mbt])\b", _F)
# A mixture of experts by its total and active sizes: "Qwen3-30B-A3B", "235b-a22b", "a 3B MoE with 800M active
# params", "16B total, 2.4B active".
_SZ = r"\d+(?:\.\d+)?\s*[mbt]"
_TOTAL_ACTIVE = (
    rf"(?<![\w.])(?P<t>{_SZ})[\s-]*a(?P<a>{_SZ})(?![\w])"
    rf"|(?<![\w.])(?P<t2>{_SZ})\s*(?:total\s*)?(?:param(?:eter)?s?\s+)?(?:(?:moe|mixture[\s-]+of[\s-]+experts)\s*)?"
    # "a 2B MoE with 8 experts (500M active)": the experts counted between
    r"(?:model\s*)?(?:(?:with\s+)?\d{1,3}\s+(?:routed\s+)?experts?\s*)?(?:,|\(|with|and|/)?\s*(?:~\s*|about\s+)?"
    rf"(?P<a2>{_SZ})\s+active(?:\s+param(?:eter)?s?)?(?:\s+per\s+token)?\)?(?![\w])"
    rf"|(?<![\w.])(?P<a3>{_SZ})\s+active(?:\s+param(?:eter)?s?)?\s*(?:,|/|of|out\s+of|and)\s*(?P<t3>{_SZ})"
    r"(?:\s+(?:total|in\s+all))(?:\s+param(?:eter)?s?)?(?![\w])"
    # "a 7B MoE from scratch (8 experts, 2 active, ~2B active params)": other words between, no other size; only the
    # sizes and what the experts are said to be are read here, so "from scratch" is still the task's
    rf"|(?<![\w.])(?P<t4>{_SZ})\s+(?P<w4>moe|mixture[\s-]+of[\s-]+experts)\b"
    r"(?P<mid>(?:(?!\d+(?:\.\d+)?\s*[mbt]\b)[^.;\n]){0,60}?)(?:~\s*|about\s+)?"
    rf"(?P<a4>{_SZ})\s+active(?:\s+param(?:eter)?s?)?(?:\s+per\s+token)?(?![\w])")
# How many experts and how many a token goes to, said between a mixture's sizes: what its active size already says
_EXPERTS_SAID_RE = compiled_on_use(
    r"\b\d{1,3}\s+(?:routed\s+)?experts?\b|\b\d{1,2}\s+(?:active|per\s+token)\b|\btop[\s-]?\d{1,2}\b", _F)
_MOE_WORD_RE = compiled_on_use(r"\b(?:moe|mixture[\s-]+of[\s-]+experts)\b", _F)
# A mixture of experts by its total size and its experts, the experts a token goes to said or not: "a 1B MoE with 8
# experts", "7B mixture-of-experts model, 64 experts top-8", "a 2B MoE (16 experts, 4 active)".
_TOTAL_EXPERTS_RE = compiled_on_use(
    rf"(?<![\w.])(?P<t>{_SZ})\s+(?:total\s+)?(?:param(?:eter)?s?\s+)?(?:sparse\s+)?(?:moe|mixture[\s-]+of[\s-]+experts)"
    r"(?:\s+model)?\s*[,(]?\s*(?:with\s+)?(?P<e>\d{1,3})\s+(?:routed\s+)?experts?"
    r"(?:\s*[,(]?\s*(?:top[\s-]?(?P<k>\d{1,2})(?:\s+routing)?|(?P<k2>\d{1,2})\s+(?:active|per\s+token)))?\)?(?![\w])",
    _F)
# After a sweep's words, "8x 350m" is how many runs of the model, not how many experts.
_SWEEP_BEFORE_RE = compiled_on_use(
    r"\b(?:sweep\w*|hpo|hyper[\s-]?param\w*|grid|search|trials?|runs?|seeds?)\W{0,3}$", _F)
_DISTILL_RE = compiled_on_use(r"\bdistil(?:l|ls|led|ling|lation)?\b", _F)
# Right after a model's name, what makes it the kind of model, not the model: "a GPT-2 style 350M model", "a
# Llama-3-like 1B", "Mistral 7B architecture".
_KIND_AFTER_RE = compiled_on_use(r"[\s-]*(?:style|like|esque|type|architecture|arch)\b", _F)
# What only distillation requests use (the compiled patterns follow the sources below).
_DISTILL_WORDS = r"\b(?:knowledge[\s-]+)?distil(?:l|ls|led|ling|lation)?\b"
_TEACHER = (
    r"\bfrom\s+(?:an?\s+|the\s+|our\s+)?" + _SIZE + r"(?:\s+(?:model|params?))?\s+teacher\b"
    r"|\bteacher(?:\s+model)?(?:\s+(?:of|is|=|:))?\s+" + _SIZE.replace("<n>", "<n2>").replace("<s>", "<s2>")
    + r"|\bfrom\s+(?:an?\s+|the\s+)?" + _SIZE.replace("<n>", "<n3>").replace("<s>", "<s3>") + r"(?=\s|$|[,.;)])"
)
_FROM = r"\b(?:from|teacher(?:\s+model)?:?)\s+(?:an?\s+|the\s+|our\s+)?"
# "distill a 70B teacher into an 8B student", "distill llama 70b into 8b", "from llama-3-70b to llama-3-8b": the
# model before "into"/"to" teaches the one after. A size may follow a family name ("llama 70b").
_PAIR_LEAD = r"\b(?:distil(?:l|ls|led|ling|lation)?(?:\s+of)?|from)\s+(?:an?\s+|the\s+|our\s+)?"
_SIZE_AT = (r"(?<![\w.-])(?:(?:llama|qwen|mistral|mixtral|gemma|phi|falcon|gpt|deepseek|olmo|yi|granite)[\w.]*[\s_-]*)?"
            + _SIZE + r"(?!\s*(?:tokens?|toks?)\b)")
_ROLE_AFTER = r"(?:\s+(?:model|params?))?\s+(?:as\s+(?:the\s+|an?\s+|our\s+)?)?(?P<role>teacher|student)\b"
_PAIR_JOIN = r"\s+(?:(?:down\s+)?(?:in)?to|onto)\s+|\s*(?:->|=>|\u2192)\s*"
_ARTICLE = r"(?:an?\s+|the\s+|our\s+)?"
_ROLE_BEFORE = r"\b(?P<role>teacher|student)(?:\s+model)?(?:\s*:|\s+(?:is|=|of))?\s+(?:an?\s+|the\s+|our\s+)?"
_DPO_RE = compiled_on_use(r"\b(?:dpo|ipo|kto|orpo|simpo|preference[\s-]+(?:tuning|optimi[sz]ation|training))\b", _F)
# "RL" alone only as training: "RL fine-tune", "RL post-training", "with RL", "RL on 7B"
_RL = (r"rl(?=[\s-]+(?:fine[\s-]?tun|train|tun|post[\s-]?train|run|stage))|(?<=with\s)rl|(?<=using\s)rl|(?<=via\s)rl"
       # "RL on 7B", "RL on qwen2.5-7b", "RL on a 7B policy": the model it trains said after it
       r"|rl(?=\s+(?:on|of)\s+(?:(?:a|an|the|our|my)\s+)?[\w.-]*\d)")
_RLHF_RE = compiled_on_use(r"\b(?:rlhf|ppo|grpo|rloo|dapo|rlaif|rlvr|reinforcement\s+learning(?:\s+from\s+(?:human|ai)"
                           rf"\s+feedback)?|{_RL})\b", _F)
# The task's words this reader takes (the task reader reads "dpo" and "rlhf" as fine-tuning words itself).
_TAKEN_TASK_WORDS_RE = compiled_on_use(
    r"\b(?:ppo|grpo|rloo|dapo|rlaif|rlvr|ipo|kto|orpo|simpo|reinforcement\s+learning(?:\s+from\s+(?:human|ai)"
    rf"\s+feedback)?|{_RL}|preference[\s-]+(?:tuning|optimi[sz]ation|training))\b", _F)


_ARTICLE_RE = compiled_on_use(_ARTICLE, _F)
_DISTILL_WORDS_RE = compiled_on_use(_DISTILL_WORDS, _F)
_FROM_RE = compiled_on_use(_FROM, _F)
# "into" (the words joining teacher and student), after a word or two for what the teacher is or right after it:
# "distill our 13B ranker into …", "our 70B chat model into …"
_PAIR_JOIN_RE = compiled_on_use(
    rf"(?:\s+(?!(?:into|to|onto|on|with|for|and|or|from|in)\b)[a-z][\w-]{{1,24}}){{0,2}}?(?P<join>{_PAIR_JOIN})", _F)
_PAIR_LEAD_RE = compiled_on_use(_PAIR_LEAD, _F)
_ROLE_AFTER_RE = compiled_on_use(_ROLE_AFTER, _F)
_ROLE_BEFORE_RE = compiled_on_use(_ROLE_BEFORE, _F)
_SIZE_AT_RE = compiled_on_use(_SIZE_AT, _F)
_TEACHER_RE = compiled_on_use(_TEACHER, _F)
_TOTAL_ACTIVE_RE = compiled_on_use(_TOTAL_ACTIVE, _F)


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
    """The named model, mixture of experts, teacher, reward model and task words in ``text``."""
    out = WorkloadReading()
    # a name that holds a task word ("DeepSeek-R1-Distill-Qwen-7B") names a model, it asks for no distillation
    plain = _blanked(text, [span for _, span in models_in_text(text)]) if _DISTILL_RE.search(text) else text
    _read_distillation(text, plain, out)
    if ("reward" in text.lower() or "rm" in text.lower()) and _RLHF_RE.search(text):
        _read_reward_model(text, out)
    found = _models_themselves(text, models_in_text(_blanked(text, out.spans)), out)
    names = sorted({model.name for model, _ in found})
    if len(names) > 1:  # "fine-tune llama 3 8b and mistral 7b": two jobs, each with its own plan and cost
        raise RequestError(f"The request names {len(names)} models ({', '.join(names)}); gpuops plans one training job"
                           f' a request, so file one for each, e.g. "fine-tune {names[0]} on 1B tokens".',
                           code="contradiction")
    if found:
        model, span = found[0]
        out.fields |= {"model": model.name, "params": model.params}
        if model.active_params is not None:
            out.fields["active_params"] = model.active_params
        out.spans.append(span)
        # the size first: a reader shown only the note's first clause learns what the name stands for
        out.notes.append(f"read '{text[span[0]:span[1]]}' as {_size(model.params)} parameters"
                         + (f", {_size(model.active_params)} active per token" if model.active_params else "")
                         + f" ({model.name})")
        if model.active_params is not None:  # "deepseek-v2-lite (16B MoE, 2.4B active)": the sizes said of it
            _read_total_active(_blanked(text, out.spans), out)
    elif not _read_total_active(_blanked(text, out.spans), out) and not _read_total_experts(
            _blanked(text, out.spans), out):
        _read_moe(_blanked(text, out.spans), out)
    task = _task(plain)
    if task is not None:
        out.fields["task"] = task
        out.spans += [m.span() for m in _TAKEN_TASK_WORDS_RE.finditer(text)]
    return out


def _models_themselves(text: str, found: list[tuple[ModelSpec, tuple[int, int]]],
                       out: WorkloadReading) -> list[tuple[ModelSpec, tuple[int, int]]]:
    """The models in ``found`` named as the model trained; one named as a kind of model ("a GPT-2 style 350M") is
    read as that: its name and the word are taken, and its size stands only when the request says none."""
    themselves = []
    for model, (start, end) in found:
        kind = _KIND_AFTER_RE.match(text, end)
        if kind is None:
            themselves.append((model, (start, end)))
            continue
        out.spans.append((start, kind.end()))
        out.fields.setdefault("params", model.params)
        out.notes.append(f"read '{text[start:kind.end()]}' as the kind of model, not {model.name} itself: a size "
                         f"said in the request is the one planned, else {model.name}'s {_size(model.params)}")
    return themselves


# "on the fly", "during training", "as we go", "per batch": made while the student trains, not before it
_WHILE_TRAINING = (r"on\s+the\s+fly|online|live|during\s+(?:training|the\s+run)|at\s+(?:train(?:ing)?|run)[\s-]?time"
                   r"|as\s+(?:we|it)\s+go(?:es)?|in\s+the\s+loop|as\s+(?:training|the\s+student)\s+(?:runs|trains)"
                   r"|while\s+(?:training|(?:the\s+)?student\s+(?:trains|is\s+training|learns))"
                   r"|(?:per|(?:on|for)\s+each|each|every)\s+(?:batch|step|micro-?batch)"
                   r"|(?:between|across)\s+epochs|(?:in|on|after)\s+the\s+first\s+(?:epoch|pass)")


# The teacher's outputs, as a text names them: "teacher logits", "the teacher's soft labels", "completions"
_TEACHER_OUTPUTS = (r"(?:(?:the\s+)?teacher(?:'s)?\s+)?"
                    r"(?:outputs?|logits|labels|targets|generations|completions|responses|soft\s+labels)")
_AHEAD = r"offline|ahead(?:\s+of\s+time)?|beforehand|in\s+advance"
# Models served only behind an API, never run in a training job: "GPT-4", "gpt-4o", "Claude 3.5", "Gemini"
_API_MODEL = (r"(?:gpt-?[345](?:\.\d)?(?:o|-turbo|-?o-?mini)?|o[134](?:-mini)?|claude(?:[\s-](?:\d(?:\.\d)?|opus|sonnet"
              r"|haiku))*|gemini(?:[\s-](?:\d(?:\.\d)?|pro|flash|ultra))*)")
_WE_HAVE = r"(?:we|i)\s+(?:already\s+)?(?:have|got)\s+(?:all\s+)?"
# The teacher's outputs made already: "teacher outputs are precomputed", "were generated", "computed offline", "no
# teacher forward passes needed", "from cached logits". The student trains on them as on any data: no forward pass
# of the teacher is priced. A bare "computed" or "generated" says nothing of when ("teacher logits computed per
# batch"), so it is made already only with a word that says so: "were", "already", "offline", "we have".
_PRECOMPUTED_RE = compiled_on_use(
    rf"\b(?:{_WE_HAVE})?{_TEACHER_OUTPUTS}\s+(?:are\s+|were\s+|have\s+been\s+)?(?:already\s+)?"
    rf"(?:pre-?computed|pre-?generated|cached|saved|stored|offline)\b(?:\s+(?:{_AHEAD}))?(?!\s+(?:{_WHILE_TRAINING}))"
    rf"|\b(?:{_WE_HAVE}{_TEACHER_OUTPUTS}\s+"
    rf"|{_TEACHER_OUTPUTS}\s+(?:(?:were|have\s+been)\s+(?:already\s+)?|(?:are\s+)?already\s+))"
    rf"(?:generated|computed)\b(?:\s+(?:{_AHEAD}))?(?!\s+(?:{_WHILE_TRAINING}))"
    rf"|\b{_TEACHER_OUTPUTS}\s+(?:are\s+)?(?:generated|computed)\s+(?:{_AHEAD})\b"
    # "1B tokens of teacher outputs we already generated", "the logits that we computed last week": made by the
    # people asking, in the past tense
    rf"|\b{_TEACHER_OUTPUTS}\s+\(?(?:that\s+|which\s+)?(?:we|i)(?:'ve|\s+have|\s+had)?\s+(?:already\s+)?"
    rf"(?:generated|computed|produced|made|created|collected|dumped|saved|cached)\b(?!\s+(?:{_WHILE_TRAINING}))"
    # "teacher outputs (already generated)"
    rf"|\b{_TEACHER_OUTPUTS}\s+\(already\s+(?:generated|computed|made|cached)\)"
    r"|\bno\s+(?:need\s+for\s+)?teacher\s+(?:forward\s+passe?s?|inference|passes)(?:\s+(?:needed|required))?\b"
    r"|\b(?:from|on|with)\s+(?:pre-?computed|cached|saved|stored|offline)\s+(?:teacher\s+)?(?:logits|outputs?|labels)\b"
    # "distill gpt-4 outputs into a 1B student": a model behind an API, whose outputs no job here can make
    rf"|\b{_API_MODEL}(?:'s)?\s+(?:outputs?|generations|completions|responses|answers|labels)\b",
    _F)


# The teacher's outputs made while the student trains: "teacher logits computed on the fly", "soft labels generated
# online": the teacher's forward passes are part of the job, as a distillation is priced anyway
_ON_THE_FLY_RE = compiled_on_use(
    rf"\b{_TEACHER_OUTPUTS}\s+(?:are\s+|will\s+be\s+)?(?:computed|generated|produced|cached)\s+(?:{_WHILE_TRAINING})\b"
    # "teacher outputs we generate on the fly"
    rf"|\b{_TEACHER_OUTPUTS}\s+(?:that\s+|which\s+)?(?:we|i)(?:'ll|\s+will)?\s+(?:compute|generate|produce)\s+"
    rf"(?:{_WHILE_TRAINING})\b",
    _F)


# An RLHF reward model's size or name, said of it: "reward model is 7B", "with a 1B reward model", "RM: llama-3-8b"
_REWARD_MODEL = r"(?:reward[\s-]+model|\brm)"
_REWARD_BEFORE_RE = compiled_on_use(
    rf"{_REWARD_MODEL}(?:\s+(?:size|model))?(?:\s*:|\s+(?:is|=|of|will\s+be)|\s*=)?\s+(?:an?\s+|the\s+|our\s+)?", _F)
_REWARD_AFTER_RE = compiled_on_use(rf"(?:\s+(?:param(?:eter)?s?))?[\s-]+{_REWARD_MODEL}\b", _F)


def _read_reward_model(text: str, out: WorkloadReading) -> None:
    """The reward model of an RLHF job, by the size or name said of it: its size is the reward's and the value
    model's (``policy.estimate``), and never a second model to train."""
    found = None
    for m in _REWARD_BEFORE_RE.finditer(text):  # "reward model is 7B"
        if (at := _model_at(text, m.end())) is not None:
            found, start, end = at, m.start(), at.end
            break
    if found is None:  # "a 1B reward model", "llama-3-8b RM"
        named = [_Named(model.params, model, a, b) for model, (a, b) in models_in_text(text)]
        sized = [_Named(int(Decimal(m["n"]) * _SCALE[m["s"].lower()]), None, *m.span())
                 for m in _SIZE_AT_RE.finditer(text)]
        for candidate in [*named, *sized]:
            if (after := _REWARD_AFTER_RE.match(text, candidate.end)) is not None:
                found, start, end = candidate, candidate.start, after.end()
                break
    if found is None:
        return
    out.fields["reward_params"] = found.params
    out.spans.append((start, end))
    out.notes.append(f"read '{' '.join(text[start:end].split())}' as the reward model: "
                     + (f"{found.model.name}, " if found.model else "") + f"{_size(found.params)} parameters, the "
                     "value model started from it (both priced at its size, the reference at the policy's)")


def _read_distillation(text: str, plain: str, out: WorkloadReading) -> None:
    """The teacher (forward passes only) and the student (the model trained) of a distillation; ``plain`` is
    ``text`` with the models' names blanked, where the task word is looked for. A teacher whose outputs are made
    already runs no forward pass in the job, so none is priced."""
    if not _DISTILL_RE.search(plain):
        return
    out.spans += [m.span() for m in _DISTILL_WORDS_RE.finditer(plain)]  # the task word, read as the task
    _read_teacher_and_student(text, out)
    live = list(_ON_THE_FLY_RE.finditer(text))
    if live:
        out.spans += [m.span() for m in live]
        said = ", ".join(f"'{' '.join(m.group(0).split())}'" for m in live)
        out.notes.append(f"read {said} as the teacher's outputs made while the student trains: its forward passes "
                         "are priced with the job")
    made = list(_PRECOMPUTED_RE.finditer(text))
    if made:
        out.spans += [m.span() for m in made]
        teacher = out.fields.pop("teacher_params", None)
        out.fields.pop("teacher_active_params", None)
        out.notes = [n.replace(", forward passes only", "") for n in out.notes]  # none is run: said next
        said = ", ".join(f"'{' '.join(m.group(0).split())}'" for m in made)
        out.notes.append(f"read {said} as the teacher's outputs made already: the student trains on them, and no "
                         "forward pass of the teacher is priced"
                         + (f" (a {teacher / 1e9:.3g}B teacher)" if teacher else ""))


def _read_teacher_and_student(text: str, out: WorkloadReading) -> None:
    """The teacher and the student of a distillation, as named or sized."""
    if _read_pair(text, out):
        return
    m = _TEACHER_RE.search(text)
    if m is None:
        if not _read_named_teacher(text, out):
            _read_role(text, out, "teacher")
        _read_role(text, out, "student")
        return
    _read_role(text, out, "student")
    n = m["n"] or m["n2"] or m["n3"]
    s = (m["s"] or m["s2"] or m["s3"]).lower()
    value = int(Decimal(n) * _SCALE[s])
    out.fields["teacher_params"] = value
    out.spans.append(m.span())
    out.notes.append(f"read '{m.group(0).strip()}' as the teacher: {_size(value)} parameters, forward passes only")


def _read_named_teacher(text: str, out: WorkloadReading) -> bool:
    """ "distill llama-3.1-8b from llama-3.1-70b": the model named after "from" is the teacher."""
    for m in _FROM_RE.finditer(text):
        named = model_in_text(text[m.end():])
        if named is None or named[1][0] != 0:
            continue
        model, (_, end) = named
        role = _ROLE_AFTER_RE.match(text, m.end() + end)  # "from mixtral 8x7b teacher"
        said_end = role.end() if role is not None and role["role"].lower() == "teacher" else m.end() + end
        _teacher(text, out, _Named(model.params, model, m.start(), m.end() + end), m.start(), said_end)
        return True
    return False


@dataclass(slots=True)
class _Named:
    """A model said by name or by size, and where."""

    params: int
    model: ModelSpec | None
    start: int
    end: int


def _model_at(text: str, pos: int) -> _Named | None:
    """The model named or sized exactly at ``pos``: "llama-3-70b", "llama 70b", "8B"."""
    named = model_in_text(text[pos:])
    if named is not None and named[1][0] == 0:
        return _Named(named[0].params, named[0], pos, pos + named[1][1])
    m = _SIZE_AT_RE.match(text, pos)
    if m is None:
        return None
    return _Named(int(Decimal(m["n"]) * _SCALE[m["s"].lower()]), None, pos, m.end())


def _read_pair(text: str, out: WorkloadReading) -> bool:
    """ "distill X into Y", "X teacher into Y student", "from X to Y": X is the teacher, Y the student."""
    for lead in _PAIR_LEAD_RE.finditer(text):
        teacher = _model_at(text, lead.end())
        if teacher is None:
            continue
        role = _ROLE_AFTER_RE.match(text, teacher.end)
        if role is not None and role["role"].lower() != "teacher":
            continue
        join = _PAIR_JOIN_RE.match(text, role.end() if role else teacher.end)
        if join is None or (role is not None and join.start("join") > join.start()):
            continue  # a teacher said by its role is joined at once: "a 70B teacher into an 8B student"
        article = _ARTICLE_RE.match(text, join.end())
        student = _model_at(text, article.end() if article else join.end())
        if student is None:
            continue
        out.spans.append(join.span("join"))  # "into", "down to", "->"
        said_from = lead.group(0).lower().startswith("from")
        _teacher(text, out, teacher, lead.start() if said_from else teacher.start, role.end() if role else teacher.end)
        after = _ROLE_AFTER_RE.match(text, student.end)
        _student(text, out, student, student.start,
                 after.end() if after and after["role"].lower() == "student" else student.end)
        return True
    return False


def _read_role(text: str, out: WorkloadReading, role: str) -> None:
    """ "a 70B teacher", "teacher: llama-3.1-70b", "an 8B student", "student model qwen2.5-1.5b"."""
    if role not in text.lower():
        return
    for m in _ROLE_BEFORE_RE.finditer(text):
        if m["role"].lower() != role:
            continue
        found = _model_at(text, m.end())
        if found is not None:
            (_teacher if role == "teacher" else _student)(text, out, found, m.start(), found.end)
            return
    named = [_Named(model.params, model, start, end) for model, (start, end) in models_in_text(text)]
    sized = [_Named(int(Decimal(m["n"]) * _SCALE[m["s"].lower()]), None, *m.span())
             for m in _SIZE_AT_RE.finditer(text)]
    for found in [*named, *sized]:
        after = _ROLE_AFTER_RE.match(text, found.end)
        if after is not None and after["role"].lower() == role:
            (_teacher if role == "teacher" else _student)(text, out, found, found.start, after.end())
            return


def _teacher(text: str, out: WorkloadReading, found: _Named, start: int, end: int) -> None:
    out.fields["teacher_params"] = found.params
    active = found.model.active_params if found.model is not None else None
    if active is not None:  # a mixture of experts teaches with the experts each token passes through
        out.fields["teacher_active_params"] = active
    out.spans.append((start, end))
    said = " ".join(text[start:end].split())
    out.notes.append(f"read '{said}' as the teacher: " + (f"{found.model.name}, " if found.model else "")
                     + f"{_size(found.params)} parameters" + (f", {_size(active)} active per token" if active else "")
                     + ", forward passes only")


def _student(text: str, out: WorkloadReading, found: _Named, start: int, end: int) -> None:
    """A named student is left for the named-model reading (its shape and note); a size is the model's size."""
    if found.model is not None:
        if end > found.end:
            out.spans.append((found.end, end))  # the word "student" after it
        elif start < found.start:
            out.spans.append((start, found.start))  # "student: qwen2.5 7b": the word before it
        return
    out.fields["params"] = found.params
    out.spans.append((start, end))
    out.notes.append(f"read '{' '.join(text[start:end].split())}' as the student: {_size(found.params)} parameters, "
                     "the model trained")


def _size_of(said: str) -> int:
    number, scale = said[:-1].strip(), said[-1].lower()
    return int(Decimal(number) * _SCALE[scale])


def _read_total_active(text: str, out: WorkloadReading) -> bool:
    """A mixture of experts said by its total and active sizes: the total is held in memory, the active size sets
    the compute."""
    if "active" not in text.lower() and not re.search(r"\d\s*[mbt][\s-]*a\d", text, _F):
        return False
    m = _TOTAL_ACTIVE_RE.search(text)
    if m is None:
        return False
    total = _size_of(m["t"] or m["t2"] or m["t3"] or m["t4"])
    active = _size_of(m["a"] or m["a2"] or m["a3"] or m["a4"])
    if not 0 < active < total:
        raise RequestError(f"'{' '.join(m.group(0).split())}' gives {_size(active)} active parameters of "
                           f"{_size(total)}: a mixture of experts uses fewer per token than it holds. Give the total "
                           'and the active size, e.g. "30B-A3B" or "a 3B MoE with 800M active params".',
                           code="contradiction")
    out.fields |= {"params": total, "active_params": active}  # of a model named as well, the figures said
    if m["t4"] is not None:
        out.spans += [(m.start("t4"), m.end("w4")), (m.start("a4"), m.end())]
        out.spans += [(m.start("mid") + e.start(), m.start("mid") + e.end())
                      for e in _EXPERTS_SAID_RE.finditer(m["mid"])]
    else:
        out.spans.append(m.span())
    out.spans += [w.span() for w in _MOE_WORD_RE.finditer(text) if not m.start() <= w.start() < m.end()]
    said = " ".join(m.group(0).split()) if m["t4"] is None else (
        f"{text[m.start('t4'):m.end('w4')]} … {text[m.start('a4'):m.end()]}")
    said = said[:-1] if said.endswith(")") and "(" not in said else said  # "(16B MoE, 2.4B active)": its close
    out.notes.append(f"read '{said}' as a mixture of experts: {_size(total)} parameters in memory, {_size(active)} "
                     "active per token")
    return True


def _read_total_experts(text: str, out: WorkloadReading) -> bool:
    """A mixture of experts said by its total size and its experts: the total is held in memory; what a token
    passes through is worked out as ``moe_params`` builds a mixture, each expert a dense block's MLP, the top 2
    unless the experts a token goes to are said."""
    if "expert" not in text.lower():
        return False
    m = _TOTAL_EXPERTS_RE.search(text)
    if m is None:
        return False
    total, experts = _size_of(m["t"]), int(m["e"])
    per_token = int(m["k"] or m["k2"] or DEFAULT_EXPERTS_PER_TOKEN)
    if experts < 2 or not 1 <= per_token <= experts:
        return False
    block = total / (1.0 - EXPERT_FFN_SHARE + experts * EXPERT_FFN_SHARE)  # the dense model each expert is cut from
    active = moe_params(experts, block, per_token)[1]
    out.fields |= {"params": total, "active_params": active}
    out.spans.append(m.span())
    routed = "" if m["k"] or m["k2"] else f" (top-{DEFAULT_EXPERTS_PER_TOKEN} routing assumed)"
    out.notes.append(f"read '{' '.join(m.group(0).split())}' as a mixture of {experts} experts: {_size(total)} "
                     f"parameters in memory, ~{_size(active)} active per token{routed}; say the active size (\"800M "
                     "active\") if it differs")
    return True


def _read_moe(text: str, out: WorkloadReading) -> None:
    m = _MOE_RE.search(text)
    if m is None:
        return
    experts = int(m["e"])
    if experts < 2:
        return
    if _SWEEP_BEFORE_RE.search(text, max(0, m.start() - 20), m.start()):  # "sweep 8x 350m": 8 runs of a 350M model
        size = int(Decimal(m["n"]) * _SCALE[m["s"].lower()])
        out.fields |= {"params": size, "trials": experts}
        out.spans.append(m.span())
        out.notes.append(f"read '{m.group(0)}' after a sweep as {experts} runs of a {_size(size)}-parameter model")
        return
    total, active = moe_params(experts, float(Decimal(m["n"]) * _SCALE[m["s"].lower()]))
    out.fields |= {"params": total, "active_params": active}
    out.spans.append(m.span())
    out.spans += [w.span() for w in _MOE_WORD_RE.finditer(text)]  # "an 8x1B MoE": the word says what "8x" did
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
    for key in ("model", "active_params", "teacher_params", "teacher_active_params", "reward_params"):
        if key in read:
            merged[key] = read[key]
    if "trials" in read:  # "sweep 8x 350m"
        said = merged.get("trials")
        if said is not None and said != read["trials"]:
            both = ", ".join(map(str, sorted({said, read["trials"]})))
            raise RequestError(f'The request names different trials values ({both}); give one, e.g. "sweep of 20 '
                               'trials".', code="contradiction")
        merged["trials"] = read["trials"]
    if "params" in read and merged.get("params") is None:
        merged["params"] = read["params"]
    elif "params" in read and "model" in read and other_size(merged["params"], read["params"]):
        # "llama 3.2 1b and 3b": a second model by its size, not the named one's size restated ("Phi-3 mini 3.8B")
        raise RequestError(f"The request names {read['model']} ({_size(read['params'])} parameters) and a "
                           f"{_size(merged['params'])} model; gpuops plans one training job a request: name one, or "
                           "file one request for each model, each with its own plan and cost.", code="contradiction")
    elif "params" in read and "active_params" in read and merged["params"] != read["params"]:
        merged.pop("active_params")  # a size said outright is a dense model's
    task = read.get("task")
    if task is not None:
        said = merged.get("task")
        if said in (Task.LORA, Task.QLORA):
            merged["adapter"] = said
        if said is not Task.SWEEP:
            merged["task"] = task
            # the parser's reading, now refined: "RLHF with a reward model" trains no reward model of its own
            refined = ("as fine-tuning", "with a scoring head on preference pairs")
            notes[:] = [n for n in notes if not n.endswith(refined)]
            notes.append(f"costed as {task.value}" + (f" through {said.value} adapters" if said in
                                                      (Task.LORA, Task.QLORA) else ""))
    return merged


def _blanked(text: str, spans: list[tuple[int, int]]) -> str:
    for start, end in spans:
        text = text[:start] + " " * (end - start) + text[end:]
    return text


# A size said beside a named model that is this far from the model's is another model, not the same one restated
_SAME_MODEL_TOLERANCE = 0.25


def other_size(said: int, named: int) -> bool:
    """Whether a size said is another model's, not the named model's size restated ("Phi-3 mini 3.8B")."""
    return abs(said - named) > _SAME_MODEL_TOLERANCE * named


def _size(value: float) -> str:
    for size, suffix in ((1e12, "T"), (1e9, "B"), (1e6, "M")):
        if value >= size:
            return f"{value / size:.3g}{suffix}"
    return f"{value:g}"
