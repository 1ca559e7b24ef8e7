"""Capacity actions: proposed from a plan, approved by the people policy names, done exactly once.

A capacity block is bought once however many approvals race (SQLite and Postgres); a SageMaker training plan bought
for a request carries its ARN into the launch's CreateTrainingJob; a quota increase is requested once and its status
is posted on the request as it changes.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import col, select

from contract.approvals import ApprovalDecision
from contract.errors import Conflict, Forbidden
from contract.requests import RequestCreate
from policy.capacity import ActionKind, CapacityOffering, CapacityView, OfferingKind, QuotaFigure, quota_for
from policy.catalog import load_catalog
from policy.config import Platforms, PolicyConfig
from policy.decision import Decision
from policy.membership import Filer
from service.aws.clients import ClientFactory
from service.capacity.actions import (
    approve_action,
    execute_action,
    propose_action,
    track_action,
    track_open_actions,
)
from service.launch.worker import drain
from service.planning import Planner
from service.requests.approvals import record_approval
from service.requests.filing import create_request
from service.spend.providers import UnavailableSpend
from service.store.db import new_session
from service.store.tables import AuditEvent, CapacityActionRow, RequestRecord
from tests.aws.conftest import dummy_session
from tests.aws.fakeaws import FakeAws
from tests.aws.launchkit import NOW, REQUESTER, FakeSageMaker, launch_policy, migrated_engine
from tests.aws.test_launch import _ctx

FINANCE = ["slack:T0GPUOPS:U0FIN1", "slack:T0GPUOPS:U0FIN2"]
LEADS = ["slack:T0GPUOPS:U0LEAD1", "slack:T0GPUOPS:U0LEAD2"]
TEXT = "production pretrain 7B on 100B tokens in 20 days"
READ = NOW


@pytest.fixture
def sqlite_engine(sqlite_url: str) -> Iterator[Engine]:
    engine = migrated_engine(sqlite_url)
    yield engine
    engine.dispose()


class FixedCapacity:
    """The account as a test states it (the AWS reads themselves are tested in test_capacity_view)."""

    blocks = False

    def __init__(self, view: CapacityView) -> None:
        self.view = view

    def upfront(self) -> None:
        return None

    def view_for(self, decision: Decision, *, now: datetime, known: CapacityView | None = None) -> CapacityView:
        return self.view

    def view_of(self, *, instance_type: str, count: int, regions: list[str], now: datetime) -> CapacityView:
        return self.view


def _policy(**platforms: bool) -> PolicyConfig:
    policy = launch_policy(platforms=Platforms(**platforms)) if platforms else launch_policy()
    return policy.model_copy(update={"groups": {**policy.groups, "finance": FINANCE}})


def _all_quotas(limit: float) -> list[QuotaFigure]:
    out = []
    for name, spec in load_catalog().instances.items():
        for platform in ("sagemaker", "ec2"):
            for purchase in ("spot", "on-demand"):
                key = quota_for(instance_type=name, family=spec.family, platform=platform, purchase=purchase,
                                region="us-east-1")
                if key is not None:
                    out.append(QuotaFigure(key=key, limit=limit, in_use=0, source="Service Quotas", as_of=READ))
    return list({q.key: q for q in out}.values())


def _offering(kind: OfferingKind) -> CapacityOffering:
    start = NOW + timedelta(hours=30)
    return CapacityOffering(kind=kind, offering_id="cb-0a1b2c3d4e5f60718" if kind is OfferingKind.CAPACITY_BLOCK
                            else "tpo-SHA256-offer1", instance_type="p4d.24xlarge", count=8, region="us-east-1",
                            start=start, end=start + timedelta(days=10), duration_hours=240.0,
                            upfront_usd=150_000.0, source="offerings", as_of=READ)


def _offered(kind: OfferingKind) -> CapacityView:
    """An account with room on every quota and one offering of ``kind``."""
    return CapacityView(known=True, as_of=READ, quotas=_all_quotas(64), offerings=[_offering(kind)],
                        offerings_known=True)


def _file(engine: Engine, policy: PolicyConfig, view: CapacityView, text: str = TEXT) -> str:
    planner = Planner(catalog=load_catalog(), policy=policy, spend=UnavailableSpend(), capacity=FixedCapacity(view))
    with new_session(engine) as session:
        record, _ = create_request(session=session, planner=planner, body=RequestCreate(text=text, team="team-ml"),
                                   actor="token:bot", requester=REQUESTER, filer=Filer(actor=REQUESTER),
                                   idempotency_key=None, now=NOW)
        return record.id


def _position(engine: Engine, request_id: str, kind: ActionKind) -> int:
    with new_session(engine) as session:
        from service.requests.records import get_revision

        decision = Decision.model_validate(get_revision(session=session, request_id=request_id, revision=1).decision)
    return next(i for i, a in enumerate(decision.capacity_actions) if a.kind is kind)


def _factory(fake: FakeAws) -> Any:
    factory = ClientFactory(session=dummy_session(), max_attempts=1, endpoint_urls={
        "ec2": fake.url, "sagemaker": fake.url, "service-quotas": fake.url})
    return lambda service, region: factory.client(service, region=region)


def _approve_all(engine: Engine, policy: PolicyConfig, request_id: str) -> None:
    for approver in [*LEADS, *FINANCE]:
        with new_session(engine) as session:
            record = session.get(RequestRecord, request_id)
            assert record is not None
            if record.status != "pending_approval":
                return
            record_approval(session=session, policy=policy, request_id=request_id, approver=approver,
                            decision=ApprovalDecision.APPROVE, comment=None, now=NOW)


def test_a_capacity_block_is_bought_once_under_two_racing_approvals(engine: Engine, fake_aws: FakeAws) -> None:
    policy = _policy(ec2=True)
    view = _offered(OfferingKind.CAPACITY_BLOCK)
    request_id = _file(engine, policy, view)
    neighbour = _file(engine, policy, view)  # a second request's action must stay untouched
    position = _position(engine, request_id, ActionKind.PURCHASE_CAPACITY_BLOCK)
    with new_session(engine) as session:
        action_id = propose_action(session=session, request_id=request_id, position=position, actor=REQUESTER,
                                   now=NOW).id
        other_id = propose_action(session=session, request_id=neighbour, position=position, actor=REQUESTER,
                                  now=NOW).id
        with pytest.raises(Forbidden, match="finance"):  # a team lead does not buy capacity
            approve_action(session=session, policy=policy, action_id=action_id, approver=LEADS[0], now=NOW)

    bought: list[dict[str, Any]] = []
    lock = threading.Lock()

    def purchase(form: dict[str, Any]) -> dict[str, Any]:
        with lock:
            bought.append(form)
        return {"CapacityReservation": {"CapacityReservationId": "cr-0123456789abcdef0",
                                        "InstanceType": "p4d.24xlarge", "State": "scheduled"}}

    fake_aws.on("PurchaseCapacityBlock", purchase)
    start = threading.Barrier(2)
    outcomes: list[Any] = []

    def approve_and_buy(approver: str, worker: str) -> None:
        start.wait()
        with new_session(engine) as session:
            approve_action(session=session, policy=policy, action_id=action_id, approver=approver, now=NOW)
        outcomes.append(execute_action(engine=engine, client_for=_factory(fake_aws), action_id=action_id,
                                       worker_id=worker, now=NOW))

    threads = [threading.Thread(target=approve_and_buy, args=(FINANCE[i], f"w{i}")) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)

    assert len(bought) == 1
    assert bought[0]["CapacityBlockOfferingId"] == "cb-0a1b2c3d4e5f60718"
    assert bought[0]["InstancePlatform"] == "Linux/UNIX"
    assert bought[0]["TagSpecification.1.Tag.1.Key"] == "gpuops:capacity-action"
    assert bought[0]["TagSpecification.1.Tag.1.Value"] == action_id
    assert sorted(o is None for o in outcomes) == [False, True]  # one did it, the other found it taken
    with new_session(engine) as session:
        row = session.get(CapacityActionRow, action_id)
        other = session.get(CapacityActionRow, other_id)
        assert row is not None and other is not None
        assert row.status == "done" and row.result["capacity_reservation_id"] == "cr-0123456789abcdef0"
        assert row.attempts == 1 and other.status == "pending_approval"
        types = [e.type for e in session.exec(select(AuditEvent).where(AuditEvent.request_id == request_id)
                                              .order_by(col(AuditEvent.seq)))]
    assert types.count("capacity.action_done") == 1 and "capacity.action_proposed" in types
    # a third try, after it is done, buys nothing
    assert execute_action(engine=engine, client_for=_factory(fake_aws), action_id=action_id, worker_id="w3",
                          now=NOW) is None
    assert len(bought) == 1


def test_a_training_plan_bought_for_a_request_reaches_create_training_job(sqlite_engine: Engine,
                                                                           fake_aws: FakeAws) -> None:
    engine = sqlite_engine
    policy = _policy()
    view = _offered(OfferingKind.TRAINING_PLAN)
    request_id = _file(engine, policy, view)
    arn = "arn:aws:sagemaker:us-east-1:123456789012:training-plan/gpuops-plan"
    fake_aws.on("CreateTrainingPlan", lambda body: {"TrainingPlanArn": arn})
    fake_aws.on("DescribeTrainingPlan", lambda body: {
        "TrainingPlanArn": arn, "TrainingPlanName": body["TrainingPlanName"], "Status": "Scheduled",
        "TotalInstanceCount": 8, "AvailableInstanceCount": 8, "InUseInstanceCount": 0})
    with new_session(engine) as session:
        action = propose_action(session=session, request_id=request_id,
                                position=_position(engine, request_id, ActionKind.CREATE_TRAINING_PLAN),
                                actor=REQUESTER, now=NOW)
        approve_action(session=session, policy=policy, action_id=action.id, approver=FINANCE[0], now=NOW)
    done = execute_action(engine=engine, client_for=_factory(fake_aws), action_id=action.id, worker_id="w1",
                          now=NOW)
    assert done is not None and done.result["training_plan_arn"] == arn
    [created] = fake_aws.calls("CreateTrainingPlan")
    assert created["TrainingPlanOfferingId"] == "tpo-SHA256-offer1"
    tracked = track_action(engine=engine, client_for=_factory(fake_aws), action_id=action.id, now=NOW)
    assert tracked.result["training_plan_status"] == "Scheduled" and tracked.result["available_instances"] == 8

    _approve_all(engine, policy, request_id)
    sagemaker = FakeSageMaker(fake_aws).install()
    drain(ctx=_ctx(engine, policy, url=fake_aws.url))
    [job] = sagemaker.jobs.values()
    assert job["ResourceConfig"]["TrainingPlanArn"] == arn
    assert job["ResourceConfig"]["InstanceType"] == "ml.p4d.24xlarge" and job["EnableManagedSpotTraining"] is False


def test_a_plan_on_reserved_capacity_launches_only_once_the_capacity_is_bought(sqlite_engine: Engine,
                                                                              fake_aws: FakeAws) -> None:
    engine = sqlite_engine
    policy = _policy()
    view = _offered(OfferingKind.TRAINING_PLAN)
    request_id = _file(engine, policy, view, text=f"{TEXT}, on a SageMaker training plan")
    with new_session(engine) as session:
        from service.requests.records import get_revision

        plan = Decision.model_validate(get_revision(session=session, request_id=request_id, revision=1).decision).plan
    assert plan.purchase_model == "capacity-block" and plan.estimated_cost_usd == 150_000.0
    sagemaker = FakeSageMaker(fake_aws).install()
    # the worker re-decides with the same account in view, so the plan approved still stands at launch
    ctx = dataclasses.replace(_ctx(engine, policy, url=fake_aws.url), planner=Planner(
        catalog=load_catalog(), policy=policy, spend=UnavailableSpend(), capacity=FixedCapacity(view)))
    _approve_all(engine, policy, request_id)  # approved before its capacity is bought
    drain(ctx=ctx)
    assert sagemaker.jobs == {}  # never launched on-demand in its place
    with new_session(engine) as session:
        record = session.get(RequestRecord, request_id)
        assert record is not None and record.status == "pending_approval"
        back = session.exec(select(AuditEvent).where(AuditEvent.request_id == request_id)
                            .order_by(col(AuditEvent.seq).desc())).first()
        assert back is not None and "has not been bought for this request" in str(back.data)
    # capacity of the same type and region bought for another offering is not the capacity approved
    with new_session(engine) as session:
        session.add(CapacityActionRow(
            id="act-other", request_id=request_id, revision=1, position=99, kind="create-training-plan",
            action={"instance_type": plan.instance_type, "region": plan.region, "offering_id": "tpo-SHA256-other"},
            status="done", proposed_by=REQUESTER, result={"training_plan_arn": "arn:other"}, created_at=NOW,
            updated_at=NOW))
        session.commit()
    _approve_all(engine, policy, request_id)
    drain(ctx=ctx)
    assert sagemaker.jobs == {}
    arn = "arn:aws:sagemaker:us-east-1:123456789012:training-plan/gpuops-plan"
    fake_aws.on("CreateTrainingPlan", lambda body: {"TrainingPlanArn": arn})
    with new_session(engine) as session:
        action = propose_action(session=session, request_id=request_id,
                                position=_position(engine, request_id, ActionKind.CREATE_TRAINING_PLAN),
                                actor=REQUESTER, now=NOW)
        approve_action(session=session, policy=policy, action_id=action.id, approver=FINANCE[0], now=NOW)
    assert execute_action(engine=engine, client_for=_factory(fake_aws), action_id=action.id, worker_id="w1",
                          now=NOW) is not None
    _approve_all(engine, policy, request_id)
    drain(ctx=ctx)
    [job] = sagemaker.jobs.values()
    assert job["ResourceConfig"]["TrainingPlanArn"] == arn and job["EnableManagedSpotTraining"] is False


def test_a_quota_increase_is_requested_once_and_its_status_posted(sqlite_engine: Engine, fake_aws: FakeAws) -> None:
    engine = sqlite_engine
    policy = _policy()
    view = CapacityView(known=True, as_of=READ, quotas=_all_quotas(0))
    request_id = _file(engine, policy, view, text="fine-tune 7B on 4x p5.48xlarge")  # multi-node: on-demand
    fake_aws.on("ListServiceQuotas", lambda body: {"Quotas": [
        {"QuotaName": "ml.p5.48xlarge for training job usage", "QuotaCode": "L-5A2F9E1B", "Value": 0,
         "ServiceCode": "sagemaker"}]})
    fake_aws.on("RequestServiceQuotaIncrease", lambda body: {"RequestedQuota": {
        "Id": "req-quota-1", "ServiceCode": body["ServiceCode"], "QuotaCode": body["QuotaCode"],
        "DesiredValue": body["DesiredValue"], "Status": "PENDING"}})
    statuses = iter(["CASE_OPENED", "CASE_OPENED", "APPROVED"])
    fake_aws.on("GetRequestedServiceQuotaChange", lambda body: {"RequestedQuota": {
        "Id": body["RequestId"], "Status": next(statuses)}})
    with new_session(engine) as session:
        action = propose_action(session=session, request_id=request_id,
                                position=_position(engine, request_id, ActionKind.QUOTA_INCREASE),
                                actor=REQUESTER, now=NOW)
        with pytest.raises(Forbidden, match="someone else"):
            approve_action(session=session, policy=policy, action_id=action.id, approver=REQUESTER, now=NOW)
        approve_action(session=session, policy=policy, action_id=action.id, approver=LEADS[0], now=NOW)
    done = execute_action(engine=engine, client_for=_factory(fake_aws), action_id=action.id, worker_id="w1",
                          now=NOW)
    assert done is not None and done.result["quota_request_status"] == "PENDING"
    [asked] = fake_aws.calls("RequestServiceQuotaIncrease")
    assert asked == {"ServiceCode": "sagemaker", "QuotaCode": "L-5A2F9E1B", "DesiredValue": 4.0}
    rounds = [track_open_actions(engine=engine, client_for=_factory(fake_aws),
                                 now=NOW.astimezone(UTC) + timedelta(hours=h)) for h in range(1, 5)]
    assert rounds == [1, 1, 1, 0]  # once APPROVED (final) it is not read again
    with new_session(engine) as session:
        posted = [e.data for e in session.exec(select(AuditEvent).where(
            AuditEvent.request_id == request_id, AuditEvent.type == "capacity.action_status")
            .order_by(col(AuditEvent.seq)))]
    assert [p["quota_request_status"] for p in posted] == ["CASE_OPENED", "APPROVED"]  # changes only


def test_over_http_finance_approves_and_the_block_is_bought_once(sqlite_url: str, fake_aws: FakeAws) -> None:
    from tests.service.apiclient import live_service

    migrated_engine(sqlite_url).dispose()
    policy = _policy(ec2=True)
    view = _offered(OfferingKind.CAPACITY_BLOCK)
    fake_aws.on("PurchaseCapacityBlock", lambda form: {"CapacityReservation": {
        "CapacityReservationId": "cr-0123456789abcdef0", "State": "scheduled"}})
    factory = ClientFactory(session=dummy_session(), max_attempts=1, endpoint_urls={"ec2": fake_aws.url})
    with live_service(sqlite_url, policy, aws=factory, capacity=FixedCapacity(view), launch="live") as service:
        filed = service.post("/v1/requests", {"text": TEXT, "team": "team-ml"}, role="bot", actor=REQUESTER)
        assert filed.status_code == 201, filed.text
        request = filed.json()
        [position] = [i for i, a in enumerate(request["decision"]["capacity_actions"])
                      if a["kind"] == "purchase-capacity-block"]
        proposed = service.post(f"/v1/requests/{request['id']}/capacity-actions", {"position": position},
                                role="bot", actor=REQUESTER)
        assert proposed.status_code == 201, proposed.text
        action = proposed.json()
        assert action["status"] == "pending_approval" and action["action"]["upfront_usd"] == 150_000.0
        refused = service.post(f"/v1/capacity-actions/{action['id']}/approvals", {}, role="bot", actor=LEADS[0])
        assert refused.status_code == 403
        done = service.post(f"/v1/capacity-actions/{action['id']}/approvals", {}, role="bot", actor=FINANCE[0])
        assert done.status_code == 200, done.text
        assert done.json()["status"] == "done"
        assert done.json()["result"]["capacity_reservation_id"] == "cr-0123456789abcdef0"
        again = service.post(f"/v1/capacity-actions/{action['id']}/approvals", {}, role="bot", actor=FINANCE[1])
        assert again.status_code == 200 and again.json()["status"] == "done"
        listed = service.get(f"/v1/requests/{request['id']}/capacity-actions").json()["items"]
        assert [a["id"] for a in listed] == [action["id"]]
    assert len(fake_aws.calls("PurchaseCapacityBlock")) == 1


def test_nothing_is_bought_for_a_request_cancelled_after_the_purchase_was_approved(sqlite_engine: Engine,
                                                                                   fake_aws: FakeAws) -> None:
    from service.requests.filing import cancel_request

    engine, policy = sqlite_engine, _policy(ec2=True)
    view = _offered(OfferingKind.CAPACITY_BLOCK)
    request_id = _file(engine, policy, view)
    bought: list[dict[str, Any]] = []
    fake_aws.on("PurchaseCapacityBlock", lambda form: bought.append(form) or {})
    with new_session(engine) as session:
        action = propose_action(session=session, request_id=request_id,
                                position=_position(engine, request_id, ActionKind.PURCHASE_CAPACITY_BLOCK),
                                actor=REQUESTER, now=NOW)
        approve_action(session=session, policy=policy, action_id=action.id, approver=FINANCE[0], now=NOW)
        cancel_request(session=session, request_id=request_id, actor=REQUESTER, is_admin=False, reason=None, now=NOW)
        with pytest.raises(Conflict, match="cancelled"):  # nor can it be proposed or approved any more
            propose_action(session=session, request_id=request_id, position=1, actor=REQUESTER, now=NOW)
    done = execute_action(engine=engine, client_for=_factory(fake_aws), action_id=action.id, worker_id="w1", now=NOW)
    assert bought == []
    assert done is not None and done.status == "failed" and "cancelled" in (done.last_error or "")


def test_an_approver_admitted_through_a_user_group_or_an_email_approves_when_the_bot_vouches(sqlite_url: str) -> None:
    """Finance lists a Slack user group and an e-mail, as an approver group may: the bot's word about the clicking
    person counts, the same words from an admin token do not, and a person in neither is refused."""
    from tests.service.apiclient import live_service

    migrated_engine(sqlite_url).dispose()
    base = _policy(ec2=True)
    policy = base.model_copy(update={"groups": {**base.groups,
                                                "finance": ["usergroup:SFINANCE", "email:cfo@example.com"]}})
    view = _offered(OfferingKind.CAPACITY_BLOCK)
    outsider, grouped, mailed = (f"slack:T0GPUOPS:U0{n}" for n in ("OUT", "GRP", "MAIL"))
    with live_service(sqlite_url, policy, capacity=FixedCapacity(view)) as service:

        def approvals() -> str:
            """Where a newly proposed capacity purchase (of a newly filed request) is approved."""
            request = service.post("/v1/requests", {"text": TEXT, "team": "team-ml"}, role="bot",
                                   actor=REQUESTER).json()
            [position] = [i for i, a in enumerate(request["decision"]["capacity_actions"])
                          if a["kind"] == "purchase-capacity-block"]
            action = service.post(f"/v1/requests/{request['id']}/capacity-actions", {"position": position},
                                  role="bot", actor=REQUESTER).json()
            return f"/v1/capacity-actions/{action['id']}/approvals"

        for person, said in ((grouped, {"approver_groups": ["SFINANCE"]}),
                             (mailed, {"approver_email": "CFO@example.com"})):
            path = approvals()
            assert service.post(path, said, role="admin", actor=person).status_code == 403  # not the bot's word
            assert service.post(path, {"approver_groups": ["SOTHER"]}, role="bot", actor=outsider).status_code == 403
            done = service.post(path, said, role="bot", actor=person)
            assert done.status_code == 200, done.text
            assert (done.json()["status"], done.json()["approvers"]) == ("approved", [person])
