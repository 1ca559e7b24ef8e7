"""The plan message and the Why? dialog as a person reads them, rendered from real decisions of the policy engine."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from bot import formatting as fmt
from bot.blocks import alternatives_of, approval_status, approve_by, request_blocks
from bot.limits import MAX_MESSAGE_BLOCKS
from bot.modals import why_view
from contract.requests import PreviousRevision
from policy.capacity import CapacityView
from policy.catalog import load_catalog
from policy.config import default_policy
from policy.decision import Decision
from policy.parse import parse_request
from policy.spend import SpendSnapshot
from policy.tree import decide
from tests.bot.factories import make_request, make_spend

NOW = datetime(2026, 11, 30, 17, 0, tzinfo=UTC)  # Monday 09:00 in Los Angeles
TZ = "America/Los_Angeles"
REQUESTS = [
    "fine-tune 7B on 2B tokens by Friday",
    "pretrain 1B on 20B tokens, production, by Dec 20",
    "fine-tune 70B by tomorrow",
    "LoRA 13B on 500M tokens asap",
    "sweep 20 trials of a 350M model on 1B tokens",
]


def plan_for(text: str) -> Decision:
    request = parse_request(text, now=NOW, tz=TZ)
    return decide(request, catalog=load_catalog(), policy=default_policy(), spend=make_spend(), now=NOW)


def visible(blocks: Any) -> str:
    """What a reader sees: a link shows its label, a date token its fallback until Slack renders it."""
    return re.sub(r"<(?:https?://|!date\^)[^|>]*\|([^>]*)>", r"\1", json.dumps(blocks, ensure_ascii=False))


FILE_NAME = re.compile(r"[\w./-]+\.(?:py|md|ya?ml|json|csv|txt)\b")


@pytest.mark.parametrize("text", REQUESTS)
def test_message_and_why_show_no_file_names_and_fit(text: str) -> None:
    req = make_request(decision=plan_for(text), text=text, planned_at=NOW)
    blocks = request_blocks(req, now=NOW)
    view = why_view(req)
    assert FILE_NAME.findall(visible(blocks)) == []
    assert FILE_NAME.findall(visible(view)) == []
    assert len(blocks) <= MAX_MESSAGE_BLOCKS
    assert "<!date^" in blocks[0]["text"]["text"]


def test_recurring_work_shows_what_it_comes_to_a_month_beside_what_was_not_read() -> None:
    text = "retrain the 1.3B ranking model nightly on 500M tokens, production"
    decision = plan_for(text)
    blocks = request_blocks(make_request(decision=decision, text=text, planned_at=NOW), now=NOW)
    [unread] = [b["text"]["text"] for b in blocks if b.get("text", {}).get("text", "").startswith("❓ *Not read*")]
    monthly = round(decision.plan.estimated_cost_usd * 30)
    assert "'nightly'" in unread and "about 30 runs a month" in unread and f"~${monthly:,}/month" in unread


def test_approval_said_in_words_says_once_beside_what_was_not_read_that_only_recorded_approvals_count() -> None:
    text = "LoRA 1B on 10M tokens, already approved by <@U0LEAD1>"
    blocks = request_blocks(make_request(decision=plan_for(text), text=text, planned_at=NOW), now=NOW)
    [unread] = [b["text"]["text"] for b in blocks if b.get("text", {}).get("text", "").startswith("❓ *Not read*")]
    assert unread == ("❓ *Not read*: 'already approved'\n🔒 approval said in words: 'already approved'; only "
                      "approvals recorded with the Approve button or the API count, so it is never approved "
                      "automatically on them")
    assert visible(blocks).count("approval said in words") == 1  # not again under Read as


def test_a_word_not_read_that_is_a_near_miss_shows_the_word_it_may_mean() -> None:
    text = "lroa 8B on 100M tokens"
    blocks = request_blocks(make_request(decision=plan_for(text), text=text, planned_at=NOW), now=NOW)
    [unread] = [b["text"]["text"] for b in blocks if b.get("text", {}).get("text", "").startswith("❓ *Not read*")]
    assert unread == "❓ *Not read*: 'lroa' (lora?)"


def test_the_summary_says_whether_the_estimate_is_within_the_budget_the_request_said() -> None:
    def head(text: str) -> str:
        blocks = request_blocks(make_request(decision=plan_for(text), text=text, planned_at=NOW), now=NOW)
        return str(blocks[0]["text"]["text"]).split("\n")[0]

    assert head("fine-tune 7B on 1B tokens, budget $2000").endswith("· budget $2,000 ✓*")
    over = plan_for("fine-tune 7B on 1B tokens, budget $100")
    assert over.over_budget_usd == round(over.plan.estimated_cost_usd - 100, 2) > 0
    assert head("fine-tune 7B on 1B tokens, budget $100").endswith(
        f"· budget $100 ✗ over by {fmt.usd(over.over_budget_usd)}*")
    assert "budget" not in head("fine-tune 7B on 1B tokens")


def test_a_scannable_message_leads_with_the_summary_and_what_moved_the_decision() -> None:
    text = REQUESTS[0]
    req = make_request(decision=plan_for(text), text=text, planned_at=NOW)
    blocks = request_blocks(req, now=NOW)
    head, why = blocks[0]["text"]["text"], blocks[1]["text"]["text"]
    assert head.startswith("*1× p5.48xlarge · spot · SageMaker · ~$")
    assert head.endswith(f"· deadline Fri ✓*\n<@U0ASKER> asked: _{text}_")
    lines = why.split("\n")
    assert lines[0] == "*Cheapest within your policy* that meets the deadline"
    # The latest approval that still meets the deadline: the plan starts and runs after it.
    by = approve_by(req)
    assert by is not None and req.decision.plan.deadline_margin_hours is not None
    assert by == NOW + timedelta(hours=req.decision.plan.deadline_margin_hours)
    assert lines[1] == f"⏰ Approve by {fmt.stamp(by, fmt.zone(TZ), now=NOW)} to meet the deadline"
    # A Slack date token, with a fallback that names the requester's zone.
    assert re.fullmatch(r"⏰ Approve by <!date\^\d+\^\{date_short_pretty\} \{time\}\|(Mon|Tue|Wed|Thu|Fri) "
                        r"\d\d:\d\d PST> to meet the deadline", lines[1])
    assert lines[2:] == ["• *spot*: interruption tolerance is high: spot with checkpointing",
                         "• *SageMaker*: SageMaker managed training"]
    contexts = [" ".join(e["text"] for e in b["elements"]) for b in blocks if b["type"] == "context"]
    # Defaults taken because nothing was said: one line, not a list.
    assert ("Defaults: stage experimental · interruption tolerance high · sequence length 4096 · region us-east-1 · "
            "team team-ml") in contexts
    sections = [b["text"]["text"] for b in blocks if b["type"] == "section" and "text" in b]
    assert ("*Read as*\n• read 'by Friday' as Fri 2026-12-04 17:00 America/Los_Angeles\n"
            "• SageMaker price estimated as EC2 + 25%") in sections
    expires = blocks[-3]["text"]["text"]
    assert re.search(r"· expires <!date\^\d+\^\{date_short_pretty\} \{time\}\|Tue 08:00 PST>$", expires)


def test_a_job_that_waits_says_when_it_starts_before_when_it_is_done() -> None:
    text = "fine-tune 7B on 1B tokens, not before Wednesday"
    req = make_request(decision=plan_for(text), text=text, planned_at=NOW)
    head = visible(request_blocks(req, now=NOW)[0]["text"]["text"])
    assert re.search(r"· starts Wed 09:00 PST · done Wed \d\d:\d\d PST\*", head), head


def test_a_cheaper_choice_passed_over_is_named() -> None:
    decision = plan_for(REQUESTS[0])
    cheap = decision.alternatives[0].model_copy(update={"label": "cheapest within policy", "estimated_cost_usd": 99.0,
                                                        "deadline_met": False})
    decision = decision.model_copy(update={"alternatives": [cheap]})
    why = request_blocks(make_request(decision=decision, planned_at=NOW), now=NOW)[1]["text"]["text"]
    assert why.split("\n")[0] == (f"*Cheapest within your policy* that meets the deadline. Cheaper: "
                                  f"{cheap.instance_count}× {cheap.instance_type} {cheap.purchase_model.value} at "
                                  "~$99 but misses the deadline")


def test_a_plan_nothing_can_land_in_time_says_so_and_is_not_sold_as_the_fastest() -> None:
    text = "quick smoke test: 7B lora, 1M tokens, 10 minutes max"
    blocks = request_blocks(make_request(decision=plan_for(text), text=text, planned_at=NOW), now=NOW)
    head, why = blocks[0]["text"]["text"], blocks[1]["text"]["text"]
    assert head.startswith("*1× ") and "✗ late by" in head
    assert why.startswith("*Nothing within your policy meets the deadline*: the lowest cost near the earliest finish")
    warnings = next(b["text"]["text"] for b in blocks if b.get("text", {}).get("text", "").startswith("⚠️"))
    assert "lands only 1 min sooner" in warnings


def test_no_approve_by_without_a_deadline_or_once_decided() -> None:
    decision = plan_for("fine-tune 7B on 2B tokens")
    assert approve_by(make_request(decision=decision, planned_at=NOW)) is None
    late = make_request(decision=plan_for(REQUESTS[0]), planned_at=NOW, status="approved")
    assert "Approve by" not in request_blocks(late, now=NOW)[1]["text"]["text"]


def test_why_leads_with_two_plain_sentences_then_the_trace_with_named_rules_linked() -> None:
    req = make_request(decision=plan_for(REQUESTS[0]), text=REQUESTS[0], planned_at=NOW)
    plan = req.decision.plan
    view = why_view(req, sources_url="https://gpuops.example/docs/sources")
    first = view["blocks"][0]["text"]["text"]
    assert first == (f"This costs about {fmt.usd(plan.estimated_cost_usd)} (between {fmt.usd(plan.cost_low_usd)} "
                     f"and {fmt.usd(plan.cost_high_usd)}), charged to team-ml, which has spent $38,420 of its $50,000 "
                     "budget this month. gpuops chose 1× p5.48xlarge on spot capacity because it is the cheapest "
                     "your policy allows that finishes before the deadline.")
    assert view["blocks"][1] == {"type": "divider"}
    stage = view["blocks"][3]["text"]["text"]
    assert stage.endswith("_source: rule: experimental or production is the first question "
                          "(<https://gpuops.example/docs/sources#stage-first|Sources>)_")
    assert "docs/" not in visible(view)


def test_why_names_rules_without_a_link_when_no_address_is_set() -> None:
    view = why_view(make_request(decision=plan_for(REQUESTS[0]), planned_at=NOW))
    assert view["blocks"][3]["text"]["text"].endswith("_source: rule: experimental or production is the first "
                                                      "question_")


def test_a_spend_the_policy_asks_to_confirm_carries_a_confirm_object() -> None:
    blocks = request_blocks(make_request(approval_confirm_usd=6200.0), now=NOW)
    approve = blocks[-2]["elements"][0]
    assert approve["action_id"] == "approve_request"
    assert approve["confirm"] == {
        "title": {"type": "plain_text", "text": "Approve this spend?", "emoji": True},
        "text": {"type": "mrkdwn", "text": "You approve up to *$6,200* of GPU spend for team-ml (4× g6e.12xlarge, "
                                           "estimate ~$310)."},
        "confirm": {"type": "plain_text", "text": "Approve", "emoji": True},
        "deny": {"type": "plain_text", "text": "Not yet", "emoji": True}}
    below = request_blocks(make_request(), now=NOW)[-2]["elements"][0]
    assert "confirm" not in below


def test_words_that_do_not_change_the_plan_are_one_line_and_a_quote_is_never_cut() -> None:
    text = ("we want to kick off the next round of our support-bot fine-tune, llama 3.1 8B on ~1.2B tokens after "
            "dedup, ideally done before Thursday standup (10am)")
    blocks = request_blocks(make_request(decision=plan_for(text), text=text, planned_at=NOW), now=NOW)
    read_as = next(b["text"]["text"] for b in blocks if b.get("text", {}).get("text", "").startswith("*Read as*"))
    assert "• read 'ideally done before Thursday standup (10am)' as Thu" in read_as
    assert "does not change the plan" not in read_as and "support-bot" not in read_as
    [also] = [b["elements"][0]["text"] for b in blocks if b["type"] == "context"
              and b["elements"][0]["text"].startswith("Also read")]
    assert also == "Also read, no change to the plan: 'support-bot', 'kick off the next round of', 'after dedup'"


def test_the_cost_center_is_a_field_of_the_plan_and_in_what_the_approver_confirms() -> None:
    text = "fine-tune 7B on 1B tokens, cost center ML-4411"
    blocks = request_blocks(make_request(decision=plan_for(text), text=text, planned_at=NOW,
                                         approval_confirm_usd=500.0), now=NOW)
    fields = next(b["fields"] for b in blocks if "fields" in b)
    assert fields[-1]["text"] == "*Cost center*\nML-4411"
    confirm = blocks[-2]["elements"][0]["confirm"]["text"]["text"]
    assert confirm.startswith("You approve up to *$500* of GPU spend for team-ml, billed to cost center ML-4411 (")
    plain = request_blocks(make_request(decision=plan_for("fine-tune 7B on 1B tokens"), planned_at=NOW), now=NOW)
    assert "Cost center" not in visible(plain)


def test_a_stated_length_at_a_fixed_price_shows_a_fixed_cost_and_no_range_to_explain() -> None:
    text = "book 16 H100s from Wednesday 9am to Friday 5pm, production"
    blocks = request_blocks(make_request(decision=plan_for(text), text=text, planned_at=NOW), now=NOW)
    fields = {f["text"].split("\n")[0]: f["text"].split("\n")[1] for f in next(b["fields"] for b in blocks
                                                                              if "fields" in b)}
    assert re.fullmatch(r"\$[\d,]+ \(fixed\)", fields["*Estimated cost*"])
    assert "Cost range" not in visible(blocks)
    # a range that can move still says what its ends assume
    assert "Cost range $" in visible(request_blocks(make_request(decision=plan_for(REQUESTS[0]), planned_at=NOW),
                                                    now=NOW))


def test_capacity_that_could_not_be_read_is_said_once_on_its_own_line() -> None:
    text = "fine-tune 7B on 1B tokens by Friday"
    unknown = CapacityView(known=False, reason="no AWS credentials")
    decision = decide(parse_request(text, now=NOW, tz=TZ), catalog=load_catalog(), policy=default_policy(),
                      spend=make_spend(), now=NOW, capacity=unknown)
    assert any(a.startswith("capacity unknown") for a in decision.assumptions)
    shown = visible(request_blocks(make_request(decision=decision, text=text, planned_at=NOW), now=NOW))
    assert "*Capacity*: unknown (no AWS credentials)" in shown
    assert "capacity unknown" not in shown  # the Read as list said it too


def test_a_revision_says_what_it_changed_and_keeps_the_earlier_choices() -> None:
    first = plan_for(REQUESTS[0])
    chosen = first.alternatives[0]
    # "Use this" pinned the instance type: the new decision offers nothing else of its own.
    second = first.model_copy(update={"plan": chosen, "alternatives": []})
    req = make_request(decision=second, revision=2, planned_at=NOW,
                       previous=PreviousRevision(revision=1, plan=first.plan, alternatives=first.alternatives))
    blocks = request_blocks(req, now=NOW)
    change = fmt.change(first.plan, chosen)
    assert change is not None
    assert blocks[1] == {"type": "context", "elements": [
        {"type": "mrkdwn", "text": f"Revision 2: {change} than revision 1"}]}
    offered = alternatives_of(req)
    assert [a.label for a in offered][0] == "revision 1's plan"
    assert all((a.instance_type, a.instance_count, a.purchase_model) !=
               (chosen.instance_type, chosen.instance_count, chosen.purchase_model) for a in offered)
    buttons = [b["accessory"]["text"]["text"] for b in blocks if "accessory" in b]
    assert buttons == ["Use this"] * len(offered) and offered


def test_change_reads_as_money_and_time() -> None:
    plan = plan_for(REQUESTS[0]).plan
    later = plan.model_copy(update={"estimated_cost_usd": plan.estimated_cost_usd * 1.41 + 0,
                                    "estimated_finish": plan.estimated_finish - timedelta(hours=6)})
    delta = later.estimated_cost_usd - plan.estimated_cost_usd
    assert fmt.change(plan, later) == f"+{fmt.usd(delta)} (+41%), finishes 6.0 h earlier"
    assert fmt.change(plan, plan) is None


def test_a_huge_request_stays_within_fifty_blocks() -> None:
    decision = plan_for(REQUESTS[0])
    decision = decision.model_copy(update={"assumptions": [f"note {i}: x" for i in range(300)],
                                           "warnings": ["w" * 500] * 40})
    req = make_request(decision=decision, text="x" * 20_000, planned_at=NOW,
                       spend=SpendSnapshot.unavailable(team=None, reason="none"))
    assert len(request_blocks(req, now=NOW)) <= MAX_MESSAGE_BLOCKS


@pytest.mark.parametrize(("text", "says"), [
    ("sweep 20 trials of a 350M model on 1B tokens, at most 8 instances", " · 20 trials, 8 at a time"),
    ("sweep of 3 trials of 1B on 8B tokens each by noon", " · 3 trials of 4 instances, 3 at a time"),
    ("2 fine-tunes of a 7B on 1B tokens back to back", " · 2 trials, 1 at a time"),
])
def test_a_sweep_says_how_its_trials_share_the_instances(text: str, says: str) -> None:
    decision = plan_for(text)
    req = make_request(decision=decision, timezone=TZ)
    shown = json.dumps(request_blocks(req, now=NOW), ensure_ascii=False)
    assert says in shown, shown[:600]
    # its runtime cap holds each trial: runs one after another take longer in all than it
    assert f"(max runtime {fmt.runtime_cap(decision.plan.max_runtime_hours)} a trial)" in shown


@pytest.mark.parametrize(("cap", "shown"), [(1.25, "1 h 15 min"), (0.25, "15 min"), (2.0, "2 h"), (6.5, "6 h 30 min"),
                                            (72.0, "3.0 days")])
def test_a_runtime_cap_is_said_to_the_minute_never_shorter_than_the_run(cap: float, shown: str) -> None:
    """A 1 h run with its 15 min start-up is capped at 1.25 h, which tenths of an hour showed as "1.2 h"."""
    assert fmt.runtime_cap(cap) == shown


def test_an_hourly_price_asked_for_is_shown_to_the_cent() -> None:
    text = "how much is a p5.48xlarge per hour on spot?"
    decision = plan_for(text)
    blocks = request_blocks(make_request(decision=decision, text=text, planned_at=NOW), now=NOW)
    fields = {f["text"].split("\n")[0]: f["text"].split("\n")[1] for f in next(b["fields"] for b in blocks
                                                                              if "fields" in b)}
    assert fields["*Price*"] == f"${decision.plan.price_per_instance_hour_usd:,.2f}/instance-hour"
    assert re.fullmatch(r"\$\d+\.\d\d/instance-hour", fields["*Price*"])  # "$18" for $18.41 was 2% off
    assert decision.request.fixed_hours == 1.0


def test_an_approved_plan_that_starts_later_says_when_it_launches() -> None:
    text = "fine-tune 7B on 1B tokens once the code freeze is over on dec 10"
    req = make_request(decision=plan_for(text), text=text, planned_at=NOW, status="approved", approvals_remaining=0)
    start = req.decision.request.start_after
    assert start is not None
    assert approval_status(req, now=NOW) == (f"✅ *Approved* · launches {fmt.stamp(start, fmt.zone(TZ), now=NOW)}, "
                                             "when its plan starts")
    assert approval_status(req, now=start) == "✅ *Approved*"  # its start reached: the worker launches it
