"""The plan message's capacity line: what the account can start, and the action that would let it start."""

from __future__ import annotations

from typing import Any

from bot.blocks import request_blocks
from policy.capacity import ActionKind, CapacityAction, CapacityCheck, CapacityStatus
from policy.decision import Plan
from tests.bot.factories import NOW, make_decision, make_plan, make_request


def _texts(blocks: list[dict[str, Any]]) -> list[str]:
    return [b["text"]["text"] for b in blocks if b.get("type") == "section" and "text" in b]


def test_capacity_that_fits_is_one_quiet_line() -> None:
    check = CapacityCheck(status=CapacityStatus.FITS, quota_name="All G and VT Spot Instance Requests", quota_limit=96,
                          quota_in_use=72, quota_needed=24, quota_unit="vCPU", placement_score=7,
                          placement_region="us-east-2")
    decision = make_decision(plan=Plan(**make_plan(capacity=check, region="us-east-2")))
    texts = _texts(request_blocks(make_request(decision=decision), now=NOW))
    assert "*Capacity*: quota ok (24 of 96 vCPU free) · spot score 7/10 in us-east-2" in texts


def test_capacity_short_lists_the_quota_increase_that_needs_approval() -> None:
    check = CapacityCheck(status=CapacityStatus.SHORT, quota_name="ml.g6e.12xlarge for spot training job usage",
                          quota_limit=0, quota_in_use=0, quota_needed=4, quota_unit="instances",
                          reasons=["quota is 0"])
    action = CapacityAction(kind=ActionKind.QUOTA_INCREASE, region="us-east-1", instance_type="g6e.12xlarge", count=4,
                            quota_service="sagemaker", quota_name="ml.g6e.12xlarge for spot training job usage",
                            desired_value=4, summary="request a quota increase: 'ml.g6e.12xlarge for spot training "
                                                     "job usage' in us-east-1 from 0 to 4 instances")
    decision = make_decision(plan=Plan(**make_plan(capacity=check)), capacity_actions=[action])
    [text] = [t for t in _texts(request_blocks(make_request(decision=decision), now=NOW)) if "Capacity" in t]
    assert text.startswith("*Capacity*: quota short (0 of 0 instances free, 4 needed)")
    assert "from 0 to 4 instances (needs approval)" in text
    [offer] = [b for b in request_blocks(make_request(decision=decision), now=NOW) if b.get("block_id") == "cap:req_1"]
    assert [(e["text"]["text"], e["action_id"]) for e in offer["elements"]] == [
        ("Propose the quota increase", "capacity_propose_0")]
    closed = request_blocks(make_request(decision=decision, status="rejected"), now=NOW)
    assert not any(b.get("block_id", "").startswith("cap:") for b in closed)  # the service would refuse it


def test_unknown_capacity_says_so() -> None:
    check = CapacityCheck(status=CapacityStatus.UNKNOWN, reasons=["capacity unknown: no AWS credentials"])
    decision = make_decision(plan=Plan(**make_plan(capacity=check)))
    assert "*Capacity*: unknown (no AWS credentials)" in _texts(request_blocks(make_request(decision=decision),
                                                                               now=NOW))


def test_a_plan_without_capacity_figures_has_no_capacity_line() -> None:
    assert not any("Capacity" in t for t in _texts(request_blocks(make_request(), now=NOW)))
