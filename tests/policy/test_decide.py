"""The decision for whole sentences: parse_request + decide, and the same through `gpuops plan`."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from typer.testing import CliRunner

from gpuops.cli import app
from policy.capacity import CapacityView
from policy.catalog import load_catalog
from policy.choose import MEANINGFUL_SHARE
from policy.config import default_policy
from policy.decision import Decision, PurchaseModel
from policy.errors import RequestError
from policy.intake import request_from
from policy.parse import RUN_TIMED_ON, parse_request, read_request
from policy.request import Stage, Task, TrainingRequest
from policy.spend import SpendSnapshot
from policy.tree import HORIZON_HOURS, decide

TZ = "America/Los_Angeles"
NOW = datetime(2026, 11, 30, 9, 0, tzinfo=ZoneInfo(TZ))
NOW_ARGS = ["--now", "2026-11-30T09:00", "--tz", TZ]
# A file of ours named in what a person reads: a reference of a design folder, a seed article, a Python module.
INTERNAL_FILE_NAME = re.compile(r"\b\w+\.(?:txt|py)\b|facts\.md|DESIGN|shared/")
BIG_FAMILIES = ("p5.", "p5e.", "p5en.", "p6-")
SPEND = SpendSnapshot.unavailable(team=None, reason="no spend source")


def plan_for(text: str, **kwargs: Any) -> Decision:
    policy = kwargs.pop("policy", default_policy())
    spend = kwargs.pop("spend", SpendSnapshot.unavailable(team=None, reason="no spend source"))
    capacity = kwargs.pop("capacity", None)
    request = parse_request(text, now=NOW, tz=TZ, **kwargs)
    return decide(request, catalog=load_catalog(), policy=policy, spend=spend, now=NOW, capacity=capacity)


def _deadline_is(iso: str) -> Callable[[Decision], bool]:
    return lambda d: d.request.deadline is not None and d.request.deadline.isoformat() == iso


def _finishes_before(iso: str) -> Callable[[Decision], bool]:
    return lambda d: d.plan.estimated_finish < datetime.fromisoformat(iso)


def _budget_holds(d: Decision) -> bool:
    return d.plan.estimated_cost_usd <= 300 or any("budget" in w for w in d.warnings)


def _late_warning(d: Decision) -> bool:
    return any(re.search(r"[\d.,]+ h late", w) for w in d.warnings)


def _assumed(fragment: str) -> Callable[[Decision], bool]:
    return lambda d: any(fragment in a for a in d.assumptions)


EXAMPLES: list[tuple[str, list[tuple[str, Callable[[Decision], bool]]]]] = [
    ("fine-tune 7B by Friday", [
        ("task fine-tune", lambda d: d.request.task == "fine-tune"),
        ("params 7e9", lambda d: d.request.params == 7_000_000_000),
        ("tokens 1e9", lambda d: d.request.tokens == 1_000_000_000),
        ("tokens assumed", _assumed("tokens: 1B assumed")),
        ("deadline Fri 17:00", _deadline_is("2026-12-04T17:00:00-08:00")),
        ("stage experimental", lambda d: d.request.stage == "experimental"),
        ("stage assumed", _assumed("stage: experimental assumed")),
        ("spot", lambda d: d.plan.purchase_model == "spot"),
        ("sagemaker", lambda d: d.plan.platform == "sagemaker"),
        ("deadline met", lambda d: d.plan.deadline_met is True),
        ("under $150 a run", lambda d: d.plan.estimated_cost_usd < 150),
        ("checkpoint interval", lambda d: d.plan.checkpoint_interval_minutes is not None),
        ("approval required", lambda d: d.approval.required and not d.approval.denied),
    ]),
    ("production fine-tune of our 7B model for the customer launch, need it by Friday", [
        ("production", lambda d: d.request.stage == "production"),
        ("on-demand", lambda d: d.plan.purchase_model == "on-demand"),
        ("deadline met", lambda d: d.plan.deadline_met is True),
    ]),
    ("fine-tune 7B by Friday, no interruptions", [
        ("experimental", lambda d: d.request.stage == "experimental"),
        ("on-demand", lambda d: d.plan.purchase_model == "on-demand"),
    ]),
    ("LoRA 7B on 200M tokens", [
        ("lora", lambda d: d.request.task == "lora"),
        ("one instance", lambda d: d.plan.instance_count == 1),
        ("at most one node of 8 GPUs", lambda d: d.plan.accelerators <= 8),
        ("under $100", lambda d: d.plan.estimated_cost_usd < 100),
    ]),
    ("fine-tune 7B by tomorrow 9am", [
        ("deadline met", lambda d: d.plan.deadline_met is True),
        ("before Tue 09:00", _finishes_before("2026-12-01T09:00:00-08:00")),
    ]),
    ("pretrain 70B on 2T tokens by Friday", [
        ("deadline missed", lambda d: d.plan.deadline_met is False),
        ("fastest", lambda d: all(a.estimated_finish >= d.plan.estimated_finish for a in d.alternatives)),
        ("late warning", _late_warning),
    ]),
    ("fine-tune 13B on 8xH100 by Friday", [
        ("p5.48xlarge", lambda d: d.plan.instance_type == "p5.48xlarge"),
        ("8 GPUs", lambda d: d.plan.accelerators == 8),
    ]),
    ("fine-tune 7B in us-west-2 by Friday under $300", [
        ("us-west-2", lambda d: d.plan.region == "us-west-2"),
        ("budget", _budget_holds),
    ]),
    ("sweep of 20 trials for a 350M model on 1B tokens each", [
        ("sweep", lambda d: d.request.task == "sweep"),
        ("20 trials", lambda d: d.request.trials == 20),
        ("spot", lambda d: d.plan.purchase_model == "spot"),
        ("20 jobs", lambda d: d.plan.jobs == 20),
    ]),
]

MORE: list[tuple[str, list[tuple[str, Callable[[Decision], bool]]]]] = [
    ("QLoRA a 65B model on 100M tokens", [
        ("qlora", lambda d: d.request.task == "qlora"),
        ("fits few GPUs", lambda d: d.plan.accelerators <= 8),
    ]),
    ("finetune llama-3 8b in eu-west-1", [
        ("eu-west-1", lambda d: d.plan.region == "eu-west-1"),
        ("no deadline", lambda d: d.plan.deadline_met is None and d.plan.deadline_margin_hours is None),
    ]),
    ("prod SFT 7B, spot ok, no deadline", [
        ("spot allowed for production without a deadline", lambda d: d.plan.purchase_model == "spot"),
        ("single node", lambda d: d.plan.instance_count == 1),
    ]),
    ("pretrain 1.5B from scratch", [
        ("tokens 20 per param", lambda d: d.request.tokens == 30_000_000_000),
        ("assumption says so", _assumed("compute-optimal")),
    ]),
    ("fine-tune 7B on p4d by Friday", [("p4d", lambda d: d.plan.instance_type == "p4d.24xlarge")]),
    ("fine-tune 405B on 1B tokens", [
        ("big hardware", lambda d: d.plan.instance_type.startswith(BIG_FAMILIES) or "trn2" in d.plan.instance_type),
        ("several nodes", lambda d: d.plan.instance_count > 1),
    ]),
    ("continue pretraining 8B on 50B tokens", [
        ("continued-pretrain", lambda d: d.request.task == "continued-pretrain"),
        ("full-training memory", lambda d: d.trace[2].answer.startswith("full training")),
    ]),
    ("HPO with 10 trials on a 1.5B model", [
        ("sweep", lambda d: d.request.task == "sweep" and d.request.trials == 10),
        ("trials side by side", lambda d: d.plan.jobs == 10 and d.plan.instance_count == 10),
    ]),
    ("train from scratch 350M on 7B tokens, spot ok", [
        ("pretrain", lambda d: d.request.task == "pretrain"),
        ("spot", lambda d: d.plan.purchase_model == "spot"),
    ]),
    ("fine-tune 7B on 8xA100 by Friday", [
        ("A100", lambda d: d.plan.accelerator == "A100" and d.plan.accelerators == 8),
    ]),
    ("SFT 7B with 32k context", [
        ("seq len", lambda d: d.request.seq_len == 32768),
        ("longer context, more activation memory", lambda d: "GiB activations" in d.trace[2].answer),
    ]),
    ("production fine-tune 13B by next Tuesday", [
        ("on-demand", lambda d: d.plan.purchase_model == "on-demand"),
        ("medium class hardware", lambda d: d.plan.instance_type.split(".")[0] in {"p4d", "p4de", "p5", "p5e",
                                                                                  "p5en"}),
        ("two approver groups", lambda d: d.approval.approver_groups == ["ml-leads", "finance"]),
    ]),
    ("fine-tune 7B for team-nlp", [
        ("team", lambda d: d.request.team == "team-nlp"),
        ("eks needs known spend", lambda d: d.plan.platform == "sagemaker"),
    ]),
]


@pytest.mark.parametrize(("text", "checks"), EXAMPLES + MORE, ids=[t for t, _ in EXAMPLES + MORE])
def test_sentence_gives_expected_decision(text: str, checks: list[tuple[str, Callable[[Decision], bool]]]) -> None:
    decision = plan_for(text)
    failed = [name for name, check in checks if not check(decision)]
    assert failed == [], f"{text!r}: {failed}; plan {decision.plan.model_dump(mode='json')}"


@pytest.mark.parametrize(("text", "_"), EXAMPLES + MORE, ids=[t for t, _ in EXAMPLES + MORE])
def test_every_decision_is_explained_and_sums_up(text: str, _: object) -> None:
    decision = plan_for(text)
    nodes = [step.node.split()[0] for step in decision.trace]
    assert nodes == [str(n) for n in range(1, 10)]
    assert all(step.source for step in decision.trace)
    shown = decision.model_dump_json()  # everything a plan, "Why?" or --json shows
    assert INTERNAL_FILE_NAME.search(shown) is None, INTERNAL_FILE_NAME.search(shown)
    for plan in [decision.plan, *decision.alternatives]:
        assert plan.estimated_cost_usd == round(sum(i.usd for i in plan.cost_breakdown), 2)
        assert plan.cost_low_usd <= plan.estimated_cost_usd <= plan.cost_high_usd
    assert len(decision.alternatives) <= 3
    assert decision.catalog.snapshot and decision.policy_version


ERRORS = [
    ("fine-tune by Friday", "missing_model_size"),
    ("fine-tune 7B by last Friday", "deadline_in_past"),
    ("fine-tune 7B starting Dec 14, done by Dec 10", "deadline_before_start"),  # a date said outright: not moved
    ("sweep 8x 350m, 20 trials", "contradiction"),  # eight runs, or twenty?
    ("fine-tune llama 3 8b and mistral 7b on 1B tokens each", "contradiction"),  # two jobs, two plans
    ("fine-tune 0B by Friday", "invalid_size"),
    ("fine-tune 7B in ap-south-1", "region_not_allowed"),
    ("fine-tune 7B on p9.xlarge", "unknown_instance_type"),
]


@pytest.mark.parametrize(("text", "code"), ERRORS)
def test_bad_requests_are_refused_with_a_code(text: str, code: str) -> None:
    with pytest.raises(RequestError) as err:
        plan_for(text)
    assert err.value.code == code


def test_unknown_team_is_refused() -> None:
    with pytest.raises(RequestError) as err:
        plan_for("fine-tune 7B", team="team-nobody")
    assert err.value.code == "unknown_team"


def test_same_input_same_decision() -> None:
    first = plan_for("fine-tune 7B by Friday").model_dump(mode="json")
    assert plan_for("fine-tune 7B by Friday").model_dump(mode="json") == first


def test_launch_not_configured_is_a_warning() -> None:
    decision = plan_for("fine-tune 7B by Friday", team="team-nlp")
    assert decision.launch_configured is False
    assert any(w.startswith("launch is not configured for team team-nlp: missing role_arn") for w in decision.warnings)


def test_a_configured_team_gets_no_launch_warning() -> None:
    decision = plan_for("fine-tune 7B by Friday", team="team-ml")
    assert decision.launch_configured is True
    assert not any("launch is not configured" in w for w in decision.warnings)


def test_eks_when_team_spends_above_threshold() -> None:
    spend = SpendSnapshot(status="ok", team="team-nlp", month_to_date_usd=90_000, forecast_usd=30_000, as_of=NOW)
    decision = plan_for("fine-tune 7B for team-nlp", spend=spend)
    assert decision.plan.platform == "eks"
    assert "managed premium" not in decision.plan.cost_breakdown[0].basis


runner = CliRunner()


@pytest.mark.parametrize("text", ["fine-tune 7B by Friday", "LoRA 7B on 200M tokens"])
def test_cli_json_is_the_decision(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GPUOPS_CAPACITY", "unknown")  # as without AWS credentials
    result = runner.invoke(app, ["plan", text, "--json", *NOW_ARGS])
    assert result.exit_code == 0, result.output
    body = json.loads(result.stdout)
    expected = plan_for(text, capacity=CapacityView(known=False, reason="no AWS credentials")).model_dump(mode="json")
    assert body["plan"]["capacity"]["status"] == "unknown"
    for key in ("request", "plan", "alternatives", "assumptions", "catalog", "naive_baseline"):
        assert body[key] == expected[key], key
    assert body["spend"]["status"] == "unavailable" and body["approval"]["required"] is True
    assert set(body) >= {"request", "plan", "alternatives", "trace", "assumptions", "warnings", "approval", "spend",
                         "catalog", "savings_vs_naive_usd", "naive_baseline"}


def test_cli_text_says_a_sweeps_runtime_cap_holds_each_job() -> None:
    text = "2 fine-tunes of a 7B on 1B tokens back to back"
    plan = plan_for(text).plan
    result = runner.invoke(app, ["plan", text, *NOW_ARGS])
    assert result.exit_code == 0, result.output
    assert "2 separate jobs of 1 instance(s), 1 at a time" in result.stdout
    assert f"max runtime {plan.max_runtime_hours:,.2f} h a job" in result.stdout  # was "5.16667 h"


def test_cli_text_opens_with_the_summary_line() -> None:
    result = runner.invoke(app, ["plan", "fine-tune 7B by Friday", *NOW_ARGS])
    assert result.exit_code == 0, result.output
    first = result.stdout.splitlines()[0]
    assert re.fullmatch(r"\d+× \S+ · spot · SageMaker · ~\$[\d,.]+ · done \w{3} \d\d:\d\d · deadline Fri 17:00 ✓",
                        first), first
    for heading in ("Why", "Alternatives", "Assumptions", "Approval"):
        assert f"\n{heading}\n" in result.stdout
    assert "prices: snapshot 2026-11-09" in result.stdout


def test_cli_summary_line_marks_the_estimate_against_the_budget_said() -> None:
    within = runner.invoke(app, ["plan", "fine-tune 7B on 1B tokens, budget $2000", *NOW_ARGS])
    over = runner.invoke(app, ["plan", "fine-tune 7B on 1B tokens, budget $100", *NOW_ARGS])
    assert within.stdout.splitlines()[0].endswith("· budget $2,000 ✓")
    assert re.search(r"· budget \$100 ✗ over by \$\d+\.\d\d$", over.stdout.splitlines()[0]), over.stdout


def test_a_deadline_a_week_on_the_same_weekday_shows_its_date() -> None:
    """Said on a Monday, next Monday's deadline would read "Mon 09:00", as if before a plan done today."""
    result = runner.invoke(app, ["plan", "fine-tune 7B over the weekend", *NOW_ARGS])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0].endswith("· deadline Mon 2026-12-07 09:00 ✓")


def test_a_start_and_finish_months_away_show_their_dates() -> None:
    """Placed only against each other, a March start and finish read "starts Wed 09:00 · done Wed 14:54": this week's
    Wednesday to a reader on a Monday."""
    result = runner.invoke(app, ["plan", "fine-tune 7B starting early March", *NOW_ARGS])
    assert result.exit_code == 0, result.output
    assert re.search(r"· starts Wed 2027-03-10 09:00 · done Wed 2027-03-10 \d\d:\d\d$", result.stdout.splitlines()[0])


def test_cli_text_lists_warnings_under_their_heading() -> None:
    result = runner.invoke(app, ["plan", "fine-tune 7B by Friday", "--team", "team-nlp", *NOW_ARGS])
    assert result.exit_code == 0, result.output
    warnings = result.stdout.split("\nWarnings\n", 1)[1]
    assert "  ! launch is not configured for team team-nlp" in warnings.split("\n\n", 1)[0]


@pytest.mark.parametrize(("text", "code"), ERRORS)
def test_cli_errors_exit_2(text: str, code: str) -> None:
    result = runner.invoke(app, ["plan", text, "--json", *NOW_ARGS])
    assert result.exit_code == 2
    error = json.loads(result.stdout)["error"]
    assert error["code"] == code and error["message"]
    plain = runner.invoke(app, ["plan", text, *NOW_ARGS])
    assert plain.exit_code == 2 and plain.stderr.strip() == error["message"]


def test_cli_spend_file_is_read_but_unknown_capacity_still_needs_a_person(
        tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GPUOPS_CAPACITY", "unknown")  # as without AWS credentials
    spend = tmp_path / "spend.json"
    spend.write_text(json.dumps({"team-ml": {"month_to_date_usd": 1000, "forecast_usd": 2000,
                                             "as_of": "2026-11-30T08:00:00-08:00"}}))
    result = runner.invoke(app, ["plan", "LoRA 7B on 200M tokens", "--json", "--spend", str(spend), *NOW_ARGS])
    body = json.loads(result.stdout)
    assert body["spend"]["status"] == "ok" and body["spend"]["budget_usd"] == 50000
    assert body["approval"]["required"] is True
    # spend alone would approve it automatically: capacity nobody could read is what holds it
    assert any(r.startswith("capacity unknown (no AWS credentials)") for r in body["approval"]["reasons"])
    assert not any("spend is" in r for r in body["approval"]["reasons"])


def test_cli_policy_env_var_is_the_default(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    text = (default_policy().model_dump_json())
    path = tmp_path / "p.yaml"
    path.write_text(text.replace('"auto_approve_below_usd":200.0', '"auto_approve_below_usd":0.0'))
    monkeypatch.setenv("GPUOPS_POLICY", str(path))
    result = runner.invoke(app, ["plan", "LoRA 7B on 200M tokens", "--json", *NOW_ARGS])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["policy_version"] != default_policy().version_hash


def _with_team_platforms(**platforms: bool) -> Any:
    policy = default_policy()
    team = policy.teams["team-ml"]
    new_team = team.model_copy(update={"platforms": team.platforms.model_copy(update=platforms)})
    return policy.model_copy(update={"teams": {**policy.teams, "team-ml": new_team}})


def test_hyperpod_team_runs_on_its_cluster_on_demand() -> None:
    decision = plan_for("fine-tune 7B by Friday", policy=_with_team_platforms(hyperpod=True))
    assert decision.plan.platform == "hyperpod" and decision.plan.purchase_model == "on-demand"


def test_diy_ec2_competes_on_cost_when_allowed() -> None:
    managed = plan_for("fine-tune 7B by Friday")
    diy = plan_for("fine-tune 7B by Friday", policy=_with_team_platforms(ec2=True))
    assert diy.plan.platform == "ec2" and diy.plan.estimated_cost_usd < managed.plan.estimated_cost_usd
    assert not any(a.startswith("SageMaker price estimated") for a in diy.assumptions)


def test_neuron_ready_team_may_use_trainium() -> None:
    policy = default_policy()
    ready = policy.teams["team-ml"].model_copy(update={"neuron_ready": True})
    policy = policy.model_copy(update={"teams": {**policy.teams, "team-ml": ready}})
    assert "trn1" in plan_for("fine-tune 7B on trn1", policy=policy).plan.instance_type
    with pytest.raises(RequestError):
        plan_for("fine-tune 7B on trn1")


def test_cli_old_spend_file_is_stale_and_never_auto_approves(tmp_path: Any) -> None:
    spend = tmp_path / "spend.json"
    spend.write_text(json.dumps({"as_of": "2026-11-28T08:00:00-08:00",
                                 "teams": {"team-ml": {"month_to_date_usd": 10, "forecast_usd": 10}}}))
    result = runner.invoke(app, ["plan", "LoRA 7B on 200M tokens", "--json", "--spend", str(spend), *NOW_ARGS])
    body = json.loads(result.stdout)
    assert body["spend"]["status"] == "stale" and body["approval"]["required"] is True
    assert any("spend is stale" in r for r in body["approval"]["reasons"])


def test_alternative_inside_the_safety_margin_is_not_called_late() -> None:
    # In us-east-1, 1× g6e.24xlarge finishes 08:39, before the 09:00 deadline but inside its 10% safety margin.
    decision = plan_for("fine-tune 7B by tomorrow 9am in us-east-1")
    labelled = {a.label: a for a in decision.alternatives}
    for label, alternative in labelled.items():
        if alternative.deadline_met:
            assert "misses the deadline" not in label
        if alternative.deadline_met is False:
            assert "misses the deadline" in label
    assert labelled


def test_regions_named_to_compare_each_get_their_plan_beside_the_best() -> None:
    decision = plan_for("can you price a 7B fine-tune on 1B tokens in each of us-east-1, us-west-2 and eu-west-1?")
    assert decision.request.unread == [] and decision.plan.region == "us-east-1"
    compared = [w for w in decision.warnings if re.match(r"in (us-west-2|eu-west-1) the plan would be ", w)]
    assert [w.split()[1] for w in compared] == ["us-west-2", "eu-west-1"]
    for warning in compared:  # each dearer than the plan, by the share said
        cost = float(re.search(r"at ~\$([\d,.]+)", warning)[1].replace(",", ""))  # type: ignore[index]
        share = cost / decision.plan.estimated_cost_usd - 1
        assert f"{share:.0%} more than this plan" in warning


def test_a_deadline_missed_by_start_up_alone_is_not_bought_off_with_the_largest_cluster() -> None:
    # 15 min of start-up: nothing lands within 10 minutes, and 16 nodes would land about a minute sooner than one
    decision = plan_for("quick smoke test: 7B lora, 1M tokens, 10 minutes max")
    assert decision.plan.deadline_met is False and decision.plan.instance_count == 1
    assert decision.plan.estimated_cost_usd < 20
    warning = next(w for w in decision.warnings if w.startswith("nothing meets the deadline"))
    assert "the fastest allowed, 16× " in warning and "min sooner" in warning
    assert any("the cheapest of the configurations finishing within 10%" in step.reason for step in decision.trace)


@pytest.mark.parametrize(("text", "says"), [
    ("fine-tune 7B by Friday under $5", "the cheapest plan that meets the deadline costs"),
    ("LoRA 7B on 200M tokens under $5", "the cheapest plan costs"),
    ("production pretrain 70B on 1.4T tokens by end of month under $50k",
     "the fastest plan, which still misses the deadline and runs past the policy's max_runtime_hours, costs"),
    # the cheapest plan is cheaper than the budget but runs longer than the policy allows: said, not contradicted
    ("pretrain 7B on 2T tokens with a $500k budget",
     "the fastest plan, which still runs past the policy's max_runtime_hours, costs"),
])
def test_budget_warning_describes_the_plan_it_prices(text: str, says: str) -> None:
    decision = plan_for(text)
    warning = next(w for w in decision.warnings if w.startswith("nothing the policy allows fits the"))
    assert says in warning
    assert f"${decision.plan.estimated_cost_usd:,.2f}" in warning


def test_budget_warning_says_why_a_cheaper_plan_within_budget_is_not_chosen() -> None:
    decision = plan_for("pretrain 7B on 2T tokens with a $500k budget")
    warning = next(w for w in decision.warnings if w.startswith("nothing the policy allows fits the"))
    assert re.search(r"; 1× p5\.48xlarge would cost ~\$[\d,]+ but runs [\d,]+ h, past the policy's max_runtime_hours$",
                     warning), warning


def test_a_budget_the_estimate_fits_but_the_runtime_cap_does_not_is_said_with_the_stop_that_holds_it() -> None:
    decision = plan_for("fine-tune 7B on 2B tokens, budget $300")
    assert decision.plan.estimated_cost_usd <= 300 < decision.plan.exposure_usd
    warning = next(w for w in decision.warnings if w.startswith("the estimate, "))
    assert f"within the $300.00 budget, but the launch may bill up to ${decision.plan.exposure_usd:,.2f}" in warning
    assert "say 'hard cap $300'" in warning
    # said as the warning says, the run stops at the budget and nothing is left to warn of
    capped = plan_for("fine-tune 7B on 2B tokens, budget $300, hard cap $300")
    assert capped.plan.exposure_usd <= 300
    assert not any(w.startswith("the estimate, ") for w in capped.warnings)


def test_a_hard_stop_on_spot_says_the_market_may_move_the_rate_it_was_worked_out_at() -> None:
    decision = plan_for("fine-tune 7B on 2B tokens, hard cap $300")
    plan = decision.plan
    assert plan.purchase_model is PurchaseModel.SPOT and plan.exposure_usd <= 300
    warning = next(w for w in decision.warnings if w.startswith("on spot, the runtime cap holds the run to $300.00"))
    od = float(re.search(r"as high as the on-demand rate \(\$([\d,.]+)/instance-hour\)", warning)[1])  # type: ignore[index]
    ceiling = float(re.search(r"would bill up to \$([\d,.]+)", warning)[1].replace(",", ""))  # type: ignore[index]
    assert od > plan.price_per_instance_hour_usd
    assert ceiling == pytest.approx(od * plan.max_runtime_hours, abs=0.01)
    assert "say 'no spot'" in warning
    # on demand the rate cannot move: the stop holds, and nothing is said
    held = plan_for("fine-tune 7B on 2B tokens, hard cap $300, no spot")
    assert not any(w.startswith("on spot, the runtime cap") for w in held.warnings)


def test_a_spot_plans_approval_says_what_its_runtime_cap_would_allow_at_spots_ceiling() -> None:
    decision = plan_for("fine-tune 7B on 2B tokens")
    plan = decision.plan
    assert plan.purchase_model is PurchaseModel.SPOT
    judged = next(r for r in decision.approval.reasons if r.startswith("judged on "))
    assert judged.startswith(f"judged on ${plan.exposure_usd:,.2f}, what the launch may bill before its runtime cap "
                             "stops it at the spot rate planned")
    said = re.search(r"the same cap would allow \$([\d,.]+)\)$", judged)
    assert said is not None, judged
    ceiling = float(said[1].replace(",", ""))
    on_demand = plan_for("fine-tune 7B on 2B tokens, on p5.48xlarge, no spot")  # the same type, its on-demand rate
    assert on_demand.plan.instance_type == plan.instance_type and plan.instance_count == 1
    assert ceiling == pytest.approx(on_demand.plan.price_per_instance_hour_usd * plan.max_runtime_hours, abs=0.01)
    assert ceiling > plan.exposure_usd
    # on demand the rate is its own ceiling: nothing more is said
    assert not any("spot's ceiling" in r for r in on_demand.approval.reasons)


@pytest.mark.parametrize("text", [
    "7B fine-tune on 1B tokens, how much more would production cost vs experimental?",
    "fine-tune 8B on 1B tokens, production or experimental, price both",
])
def test_both_stages_named_to_compare_plan_production_and_price_the_experiment_beside_it(text: str) -> None:
    decision = plan_for(text)
    assert decision.request.stage is Stage.PRODUCTION and decision.request.unread == []
    assert decision.plan.purchase_model is PurchaseModel.ON_DEMAND
    compared = next(w for w in decision.warnings if w.startswith("compared: as experimental work the plan would be "))
    experiment = plan_for(text.replace("production", "").replace("vs", "").replace(" or ", " "))
    assert experiment.request.stage is not Stage.PRODUCTION
    assert f"~${experiment.plan.estimated_cost_usd:,.2f}" in compared and "less than this plan" in compared
    # both said with no word that compares them: production, the stricter, and nothing priced beside it
    plain = plan_for("fine-tune 8B on 1B tokens for the production chatbot, still experimental")
    assert plain.request.stage_choice == [] and not any(w.startswith("compared: ") for w in plain.warnings)


def test_when_nothing_fits_the_runtime_cap_no_alternative_is_called_within_policy() -> None:
    decision = plan_for("pretrain 70B on 2T tokens")
    assert any("longer than max_runtime_hours" in r for r in decision.approval.reasons)
    # every configuration runs past the cap: "cheapest within policy" was one that ran for six years
    assert all("within policy" not in a.label or a.estimated_hours <= default_policy().max_runtime_hours
               for a in decision.alternatives)


@pytest.mark.parametrize(("task", "params", "tokens", "trials"), [
    (Task.LORA, 500_000_000_000, 10**15, 1),
    (Task.SWEEP, 70_000_000_000, 10**13, 1000),
    (Task.FINE_TUNE, 400_000_000_000, 10**16, 1),
])
def test_work_no_configuration_finishes_within_a_century_is_refused_with_its_length(
        task: Task, params: int, tokens: int, trials: int) -> None:
    # its finish date fell outside the calendar: the decision failed with an internal error
    request = TrainingRequest(task=task, params=params, tokens=tokens, trials=trials, region="us-east-1")
    with pytest.raises(RequestError) as caught:
        decide(request, catalog=load_catalog(), policy=default_policy(), spend=SPEND, now=NOW)
    assert caught.value.code == "no_configuration"
    assert re.match(r"The fastest configuration the policy allows would run for [\d,]+ years", caught.value.message)


def test_alternatives_never_run_past_a_century_when_the_plan_does_not() -> None:
    request = TrainingRequest(task=Task.PRETRAIN, params=405_000_000_000, tokens=8 * 10**13, region="us-east-1")
    decision = decide(request, catalog=load_catalog(), policy=default_policy(), spend=SPEND, now=NOW)
    assert decision.approval.denied and decision.plan.estimated_hours < HORIZON_HOURS
    assert all(a.estimated_hours <= HORIZON_HOURS for a in decision.alternatives)


@pytest.mark.parametrize(("text", "never"), [
    ("fine-tune 7B on 1B tokens, not in us-east-1", {"us-east-1"}),
    ("fine-tune 7B on 1B tokens, avoid us-east-1 and us-east-2", {"us-east-1", "us-east-2"}),
    # only the regions named: the default region, us-east-1, is cheaper for this job and was chosen before
    ("fine-tune 7B on 1B tokens in us-west-2 or eu-west-1", {"us-east-1", "us-east-2"}),
])
def test_plan_and_alternatives_stay_out_of_regions_the_request_rules_out(text: str, never: set[str]) -> None:
    decision = plan_for(text)
    assert {decision.plan.region, *(a.region for a in decision.alternatives)}.isdisjoint(never)


@pytest.mark.parametrize(("text", "code"), [
    ("fine-tune 7B in us-east-1, not in us-east-1", "contradiction"),
    ("fine-tune 7B, not in us-east-1, us-east-2, us-west-2 or eu-west-1", "contradiction"),
    ("fine-tune 7B in eu-central-1 or eu-north-1", "region_not_allowed"),  # one allowed is searched alone
])
def test_regions_ruled_out_or_outside_the_policy_are_refused(text: str, code: str) -> None:
    with pytest.raises(RequestError) as caught:
        plan_for(text)
    assert caught.value.code == code


def test_urgency_with_a_deadline_is_said_as_the_deadline_deciding_the_plan() -> None:
    decision = plan_for("urgent: fine-tune 13B on 800M tokens before Friday's launch")
    assert any(n.startswith("read 'urgent' with the deadline said: the plan is the cheapest that meets it")
               for n in decision.request.notes)
    assert not any("the earliest finish" in n for n in decision.request.notes)
    cheapest_in_time = min(a.estimated_cost_usd for a in decision.alternatives if a.deadline_met)
    assert decision.plan.deadline_met and decision.plan.estimated_cost_usd <= cheapest_in_time


def test_plan_fits_max_runtime_when_some_configuration_does() -> None:
    # The cheapest configuration (1× g6e.2xlarge spot) runs ~600 h; the guardrails would deny it outright.
    decision = plan_for("pretrain 1.5B on 30B tokens")
    cap = default_policy().max_runtime_hours
    assert decision.plan.estimated_hours <= cap
    assert not decision.approval.denied
    assert all(a.estimated_hours <= cap for a in decision.alternatives)


def test_plan_longer_than_max_runtime_only_when_nothing_fits_and_is_denied() -> None:
    decision = plan_for("pretrain 70B on 2T tokens")
    assert decision.plan.estimated_hours > default_policy().max_runtime_hours
    assert decision.approval.denied


def test_cli_text_says_when_there_is_no_naive_baseline() -> None:
    # p5.48xlarge has no price in eu-west-1 in this snapshot.
    result = runner.invoke(app, ["plan", "fine-tune 7B in eu-west-1", *NOW_ARGS])
    assert result.exit_code == 0, result.output
    assert "vs naive: no savings figure" in result.stdout and "eu-west-1" in result.stdout.splitlines()[-2]
    priced = runner.invoke(app, ["plan", "fine-tune 7B", *NOW_ARGS])
    assert re.search(r"\nvs naive 1× p5\.48xlarge on-demand on SageMaker \(~\$[\d,.]+\): \$[\d,.]+ (saved|more)\n",
                     priced.stdout)


def test_multi_node_production_never_runs_on_spot_even_when_restartable() -> None:
    # No deadline and "can restart": only the rule "spot only for single-node jobs or sweeps" keeps it off spot.
    decision = plan_for("production pretrain 7B on 140B tokens, can restart")
    assert decision.request.interruption_tolerance == "high" and decision.request.deadline is None
    for plan in [decision.plan, *decision.alternatives]:
        if plan.instances_per_job > 1:
            assert plan.purchase_model != "spot", plan
    assert decision.plan.instances_per_job > 1
    assert "multi-node synchronous production" in decision.trace[5].reason


def test_cli_spend_file_without_as_of_is_shown_but_never_auto_approves(tmp_path: Any) -> None:
    spend = tmp_path / "spend.json"
    spend.write_text(json.dumps({"team-ml": {"month_to_date_usd": 1000, "forecast_usd": 2000}}))
    result = runner.invoke(app, ["plan", "LoRA 7B on 200M tokens", "--json", "--spend", str(spend), *NOW_ARGS])
    body = json.loads(result.stdout)
    assert body["spend"]["status"] == "stale" and body["spend"]["month_to_date_usd"] == 1000
    assert body["approval"]["required"] is True
    assert any("age is unknown" in r for r in body["approval"]["reasons"])


def test_sweep_max_runtime_is_per_job_not_for_the_whole_sweep() -> None:
    # 2000 trials of ~4.6 h each, 16 at a time: the sweep runs for weeks but no single job for more than a few hours.
    decision = plan_for("sweep of 2000 trials on a 350M model on 1B tokens each")
    plan = decision.plan
    assert plan.jobs == 2000 and plan.estimated_hours > default_policy().max_runtime_hours
    job_hours = plan.estimated_hours / -(-plan.jobs // (plan.instance_count // plan.instances_per_job))
    assert job_hours < plan.max_runtime_hours <= job_hours * default_policy().estimate.max_runtime_factor + 1
    assert not decision.approval.denied


def test_cli_text_dates_a_finish_more_than_a_week_out_without_a_deadline() -> None:
    result = runner.invoke(app, ["plan", "pretrain 7B on 140B tokens, experimental", *NOW_ARGS])
    assert result.exit_code == 0, result.output
    assert re.search(r"· done \w{3} 2026-12-\d\d \d\d:\d\d$", result.stdout.splitlines()[0]), result.stdout[:200]
    soon = runner.invoke(app, ["plan", "LoRA 7B on 200M tokens", *NOW_ARGS])
    assert re.search(r"· done \w{3} \d\d:\d\d$", soon.stdout.splitlines()[0])


@pytest.mark.parametrize("figure", ["NaN", "Infinity", "1e999"])
def test_cli_spend_file_rejects_non_finite_figures(tmp_path: Any, figure: str) -> None:
    spend = tmp_path / "spend.json"
    spend.write_text('{"team-ml": {"month_to_date_usd": ' + figure + ', "as_of": "2026-11-30T08:00"}}')
    result = runner.invoke(app, ["plan", "LoRA 7B on 200M tokens", "--json", "--spend", str(spend), *NOW_ARGS])
    assert result.exit_code == 2 and json.loads(result.stdout)["error"]["code"] == "invalid_spend_file"


def test_a_request_without_a_region_is_planned_in_the_cheapest_allowed_region() -> None:
    # team-nlp has no launch profile yet, so nothing ties it to one region's buckets and subnets.
    anywhere = plan_for("pretrain 7B on 140B tokens for team-nlp")
    assert any(a.startswith("region: searched us-east-1, ") for a in anywhere.assumptions), anywhere.assumptions
    per_region = {region: plan_for(f"pretrain 7B on 140B tokens for team-nlp in {region}").plan.estimated_cost_usd
                  for region in default_policy().regions}
    assert anywhere.plan.estimated_cost_usd == min(per_region.values())
    assert anywhere.request.region == min(per_region, key=per_region.__getitem__)


def test_a_team_with_a_launch_profile_is_planned_only_where_it_can_launch() -> None:
    decision = plan_for("pretrain 7B on 140B tokens for team-ml")  # configured, no launch.regions: the default
    assert decision.plan.region == "us-east-1"
    assert {a.region for a in decision.alternatives} <= {"us-east-1"}


def test_a_named_region_is_the_only_one_searched() -> None:
    decision = plan_for("pretrain 7B on 140B tokens in us-west-2")
    assert decision.plan.region == "us-west-2" and {a.region for a in decision.alternatives} <= {"us-west-2"}


@pytest.mark.parametrize("text", ["fine-tune 7B by Friday", "pretrain 7B on 140B tokens by Friday"])
def test_cheapest_and_fastest_alternatives_say_they_are_within_policy(text: str) -> None:
    labels = [a.label for a in plan_for(text).alternatives if a.label.startswith(("cheapest", "fastest"))]
    assert labels and all(label.split(" (")[0].endswith(" within policy") for label in labels), labels


def test_a_sweep_of_a_model_one_instance_cannot_hold_runs_each_trial_as_a_job_of_its_own() -> None:
    # it was one job of 2 instances holding all four trials' work: the launch runs a job per trial, so that job
    # would have trained one trial; and its single start-up made a bigger model's sweep cheaper than a smaller one's
    plan = plan_for("sweep of 4 trials of 30B on 100M tokens on p4d").plan
    assert plan.jobs == 4 and plan.instances_per_job is not None and plan.instances_per_job >= 2
    assert plan.instance_count % plan.instances_per_job == 0
    exact = plan_for("sweep of 4 trials of 30B on 100M tokens on 8 p4d instances").plan
    assert (exact.jobs, exact.instance_count) == (4, 8)


def test_an_exact_count_past_one_instance_a_trial_spreads_each_trial_over_its_share() -> None:
    # it was 8 instances in the plan and its quota check, 4 of them idle: the launch runs a job per trial
    plan = plan_for("sweep of 4 trials of 13B on 1B tokens on 8 p5.48xlarge").plan
    assert (plan.instance_count, plan.jobs, plan.instances_per_job) == (8, 4, 2)
    assert "4 trials as separate jobs" in plan.cost_breakdown[0].basis and "on 2 instances each" in \
        plan.cost_breakdown[0].basis


@pytest.mark.parametrize(("text", "used", "warning"), [
    # single-accelerator sizes cannot share one job: a trial each
    ("sweep of 4 trials of 1B on 1B tokens on 8 g5.xlarge", 4,
     "8 instances asked, 4 used: 4 trials, each a job of 1 instance, leave 4 with nothing to run"),
    # 3 trials cannot split 8 instances evenly: 2 each
    ("sweep of 3 trials of 13B on 1B tokens on 8 p5.48xlarge", 6,
     "8 instances asked, 6 used: 3 trials, each a job of 2 instances, leave 2 with nothing to run"),
    ("sweep of 3 trials of 13B on 1B tokens on 64 H100s", 6,
     "64 accelerators asked, 48 used: 3 trials, each a job of 2 instances, leave 16 with nothing to run"),
])
def test_instances_the_trials_cannot_use_are_not_planned_and_the_plan_says_so(text: str, used: int,
                                                                               warning: str) -> None:
    decision = plan_for(text)
    assert decision.plan.instance_count == used
    assert decision.plan.instance_count == decision.plan.jobs * decision.plan.instances_per_job
    assert any(w.startswith(warning) for w in decision.warnings), decision.warnings


def test_a_sweep_whose_deadline_one_instance_a_trial_cannot_meet_spreads_each_trial_over_several() -> None:
    plan = plan_for("sweep of 3 trials of 1B on 8B tokens each by noon").plan
    assert plan.deadline_met and plan.jobs == 3 and plan.instances_per_job > 1, plan
    assert plan.instance_count == 3 * plan.instances_per_job  # all trials at once, each a synchronous job
    assert f"on {plan.instances_per_job} instances each, 3 at a time" in plan.cost_breakdown[0].basis
    # without the deadline one instance a trial is cheaper, and chosen
    relaxed = plan_for("sweep of 3 trials of 1B on 8B tokens each").plan
    assert relaxed.instances_per_job == 1 and relaxed.estimated_cost_usd < plan.estimated_cost_usd


@pytest.mark.parametrize("text", ["sweep of 3 trials of 1B on 2B tokens each",
                                  "sweep of 2 trials of 30B on 100M tokens on p4d"])
def test_runs_said_to_run_one_at_a_time_finish_when_the_last_has_run(text: str) -> None:
    together = plan_for(text).plan
    apart = plan_for(f"{text}, back to back").plan
    assert apart.jobs == together.jobs and apart.jobs_at_once == 1 < together.jobs_at_once
    # as much work at the same rate: the same cost to the cent or so, finished only when every run has
    assert apart.estimated_hours > together.estimated_hours * (apart.jobs - 0.5) / together.jobs_at_once
    assert abs(apart.estimated_cost_usd - together.estimated_cost_usd) <= 0.2 * together.estimated_cost_usd


def test_runs_one_at_a_time_on_an_exact_count_each_use_every_instance() -> None:
    # side by side, 3 trials use 3 of the 4 instances; one at a time, each runs on all 4
    plan = plan_for("sweep of 3 trials of 13B on 1B tokens on 4 p5.48xlarge, sequentially").plan
    assert (plan.instance_count, plan.instances_per_job, plan.jobs, plan.jobs_at_once) == (4, 4, 3, 1)


def test_runs_one_at_a_time_spread_each_over_more_instances_to_meet_a_deadline() -> None:
    # a run on one instance takes hours: three of them one after another by 6pm need each on several
    plan = plan_for("sweep of 3 trials of 1B on 8B tokens each, one after the other, by 6pm, experimental").plan
    assert plan.deadline_met and plan.jobs_at_once == 1 and plan.instances_per_job > 1, plan


@pytest.mark.parametrize(("text", "task", "says"), [
    # a from-scratch token budget (~20 per parameter) for a model no name says is trained already
    ("train a 2.7B model on 55B tokens", Task.PRETRAIN, "task: pretraining assumed (55B tokens is ~20 per parameter"),
    ("train 7B on 2B tokens", Task.FINE_TUNE, "task: fine-tune assumed"),
    # a named model has trained weights to start from
    ("train llama-3.2-1b on 30B tokens", Task.FINE_TUNE, "task: fine-tune assumed"),
])
def test_unsaid_work_is_assumed_from_its_token_budget(text: str, task: Task, says: str) -> None:
    decision = plan_for(text)

    assert decision.request.task is task
    assert _assumed(says)(decision)


def test_a_deadline_hoped_for_is_met_without_the_safety_margin_a_promised_one_is_planned_with() -> None:
    """ "ideally within 2 weeks" bought a B200 node for $14,269 to land a week early, where one H100 node meets the
    date for $5,827: a margin ahead of a date that is no promise is money for nothing."""
    from tests.policy.test_hardware_limits import NOW, decided

    hoped = decided("continued pretraining of llama 3.1 8B on 50B tokens, ideally within 2 weeks")
    promised = decided("continued pretraining of llama 3.1 8B on 50B tokens, within 2 weeks")
    assert hoped.request.deadline_wish is True and promised.request.deadline_wish is None
    assert hoped.plan.deadline_met and hoped.plan.estimated_cost_usd < promised.plan.estimated_cost_usd / 2
    to_deadline = (promised.request.deadline - NOW).total_seconds() / 3600
    assert promised.plan.estimated_hours <= to_deadline * 0.9 < hoped.plan.estimated_hours <= to_deadline
    assert any("a date hoped for, so without the safety margin" in s.reason for s in hoped.trace)


def test_the_terminal_says_an_estimate_only_takes_no_approval() -> None:
    result = CliRunner().invoke(app, ["plan", "just a quote, don't launch: fine-tune 7B on 1B tokens", "--now",
                                      "2026-11-30T09:00", "--tz", "America/Los_Angeles"])
    assert result.exit_code == 0, result.output
    assert "Approval\n  none: an estimate only, which launches nothing" in result.output


def test_an_estimate_only_never_quotes_words_the_request_did_not_say() -> None:
    decision = plan_for("price out a 7B pretrain on 20B tokens for the planning doc, no launch")
    [reason] = [r for r in decision.approval.reasons if r.startswith("an estimate only")]
    assert "don't launch" not in reason and reason.endswith("ask again without asking for an estimate only")


def test_the_size_class_warning_gives_the_best_insides_run_hours_not_its_wait_for_the_start() -> None:
    now_start = plan_for("fine-tune 7B on 1B tokens, done by dec 14")
    later_start = plan_for("fine-tune 7B on 1B tokens after dec 10, done by dec 14")
    assert later_start.request.start_after is not None

    def outside(d: Decision) -> list[str]:
        return [w for w in d.warnings if "size class" in w]

    assert outside(now_start) and outside(later_start) == outside(now_start)


def test_with_no_deadline_a_type_outside_the_class_is_taken_only_while_not_far_slower() -> None:
    """One accelerator runs at full efficiency (it was charged for a link it does not use), which made a 13B LoRA on
    one L40S the cheapest at 137 h: four times as long as the best inside the class is as far as cost alone goes."""
    decision = plan_for("LoRA 13B on 1B tokens in us-west-2")
    assert decision.plan.instance_type == "p5.48xlarge" and decision.plan.estimated_hours < 10
    cheapest = {a.label: a for a in decision.alternatives}["cheapest within policy"]
    assert cheapest.instance_type.startswith("g6e") and cheapest.estimated_hours > 4 * decision.plan.estimated_hours


def test_one_accelerator_trains_at_its_full_rate() -> None:
    """A LoRA of an 8B on one H100 took 17.5 h where its FLOPs at the H100's rate give about 8 h."""
    decision = plan_for("LoRA llama 3.1 8b on 1x H100, 300M tokens")
    assert decision.plan.instance_type == "p5.4xlarge" and decision.plan.estimated_hours < 9


def test_the_deadline_margin_is_taken_from_the_time_after_the_start() -> None:
    """ "can't start before Friday 9am, due Friday 6pm" took a tenth of the four days until Friday off its nine hours:
    nothing met it, and the plan went to 16 instances on-demand (~$640) for a 3.5 h job."""
    decision = plan_for("experimental, fine-tune llama 8B on 500M tokens, can't start before Friday 9am, "
                        "due Friday 6pm")
    assert decision.plan.deadline_met and decision.plan.instance_count == 1
    assert decision.plan.estimated_cost_usd < 100


def test_more_runs_of_a_stated_length_than_may_run_at_once_go_in_rounds() -> None:
    """30 runs of an hour each on a g5.xlarge: at most 16 instances at once, so two rounds of an hour each (plus
    start-up), billed for the 30 runs' hours and no more. It was refused as if no g5.xlarge could hold the model."""
    decision = plan_for("hyperparameter search for bert-base, 30 trials, 1 hour each on a g5.xlarge")
    plan = decision.plan
    per_run = plan.max_runtime_hours  # the stated hour and its start-up, each job's cap
    assert (plan.instance_type, plan.jobs, plan.instances_per_job) == ("g5.xlarge", 30, 1)
    assert plan.instance_count == default_policy().max_instances == 16
    assert plan.estimated_hours == pytest.approx(2 * per_run, abs=0.01)  # two rounds
    assert plan.estimated_cost_usd == pytest.approx(30 * per_run * plan.price_per_instance_hour_usd, abs=0.05)
    assert "30 trials as separate jobs of 1.25 h, 16 at a time" in plan.cost_breakdown[0].basis


def test_runs_of_a_stated_length_that_fit_side_by_side_stay_one_round() -> None:
    """"3 seeds of 8 H100 for 6 hours each": the hardware asked holds every run at once, for those hours."""
    plan = plan_for("run 3 seeds of 8 H100 for 6 hours each").plan
    assert plan.jobs == 3 and plan.instance_count == 3 and plan.estimated_hours < 7


def test_a_length_of_each_run_said_without_hardware_asks_what_the_runs_were_timed_on() -> None:
    """"30 trials, 1 hour each" was read as an hour for all 30 runs, and planned on 16 p5.48xlarge to finish by then
    ($219 for bert-base). Each run's length means nothing without the hardware it was timed on: it is asked."""
    reading = read_request("hyperparameter search for bert-base, 30 trials, 1 hour each", now=NOW, tz=TZ)
    assert reading.fields["fixed_hours"] == 1.0 and "deadline" not in reading.fields
    [question] = reading.questions
    assert question.field == "instance_type" and question.question.startswith("'1 hour each': each of the 30 runs")
    catalog = load_catalog()
    assert [c.value for c in question.choices] == [name for name, _ in RUN_TIMED_ON]
    assert all(catalog.instance(c.value).instance_type == c.value for c in question.choices)
    answered = request_from(text="hyperparameter search for bert-base, 30 trials, 1 hour each",
                            fields={"instance_type": "g5.xlarge"}, now=NOW, timezone=TZ, asking=True)
    plan = decide(answered, catalog=catalog, policy=default_policy(), spend=SPEND, now=NOW).plan
    assert (plan.instance_type, plan.jobs, plan.instance_count) == ("g5.xlarge", 30, 16)


@pytest.mark.parametrize("text", [
    "a 24h sweep of 8 configs on a 1B model",  # the sweep's length: the time the work has
    "sweep of 8 configs on a 1B model, 2 hours each, on 8 A10Gs",  # the hardware is said
    "sweep of 8 configs on a 1B model on 200M tokens, 2 hours each",  # the work is said
])
def test_a_length_said_of_the_whole_sweep_or_beside_its_hardware_or_work_asks_nothing(text: str) -> None:
    assert not [q for q in read_request(text, now=NOW, tz=TZ).questions if q.field == "instance_type"]


def test_a_deadline_bound_run_takes_the_fewest_instances_that_meet_it_when_that_saves() -> None:
    """Counts are tried in powers of two: 8 p5.48xlarge finish a 3B model's 300B tokens too late for Friday, so 16
    were planned, though 9 make it, and a small model scales poorly across many nodes: 16 cost ~$72k, 9 ~$56k."""
    decision = plan_for("pretrain 3B on 300B tokens by Friday, experimental")
    plan = decision.plan
    sixteen = plan_for("pretrain 3B on 300B tokens by Friday, experimental, on 16 p5.48xlarge").plan
    assert (plan.instance_type, sixteen.instance_type, sixteen.instance_count) == ("p5.48xlarge", "p5.48xlarge", 16)
    assert 8 < plan.instance_count < 16 and plan.deadline_met is True
    assert plan.estimated_cost_usd < sixteen.estimated_cost_usd * (1 - MEANINGFUL_SHARE)
    assert any(a.startswith(f"{plan.instance_count}× p5.48xlarge: the fewest that meet the deadline")
               for a in decision.assumptions)
    # one fewer misses the deadline's safety margin: the fewest that meet it, not merely fewer
    fewer = plan_for(f"pretrain 3B on 300B tokens by Friday, experimental, on {plan.instance_count - 1} p5.48xlarge")
    assert any(w.startswith("nothing finishes with the 10% safety margin") for w in fewer.warnings)


def test_a_saving_too_small_to_matter_keeps_the_count_that_finishes_sooner() -> None:
    """On nearly linear scaling, 5 instances instead of 8 save a few dollars in $70k and finish three days later."""
    decision = decide(parse_request("pretrain 7B on 200B tokens by Dec 20, production", now=NOW, tz=TZ),
                      catalog=load_catalog(), policy=default_policy(), spend=SPEND,
                      now=datetime(2026, 12, 7, 10, 0, tzinfo=ZoneInfo(TZ)))
    assert decision.plan.instance_count == 8
    assert not any("the fewest that meet the deadline" in a for a in decision.assumptions)


def test_fewer_instances_are_never_taken_past_the_runtime_cap() -> None:
    """7B on 1T tokens within 30 days: 9 to 15 p5.48xlarge would meet the deadline for less, but their jobs run past
    the policy's max_runtime_hours, which the guardrails deny; the 16 chosen are kept."""
    plan = plan_for("pretrain 7B on 1T tokens, we need it done in 30 days").plan
    assert plan.instance_count == 16 and plan.deadline_met is True
    assert plan.max_runtime_hours <= default_policy().max_runtime_hours
