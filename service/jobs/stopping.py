"""Stopping a running request's job (``POST /v1/requests/{id}/stop``): who may ask, and when.

The stop is asked of the job's platform through its launcher (or, with ``GPUOPS_LAUNCH=dry-run``, only recorded);
the request stays ``running`` until the tracker sees the job stopped (on EKS: deleted) and records ``stopped`` with
the final figures.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.engine import Engine

from contract.errors import Conflict, Forbidden, NotFound
from contract.status import RequestStatus
from policy.config import PolicyConfig
from policy.membership import Filer, approval_basis
from policy.request import Stage
from service.jobs.tracker import running_job_for, stop_job
from service.launch.registry import LaunchEnvironment
from service.requests.records import get_request_or_raise
from service.store.db import new_session
from service.store.tables import RequestRecord


def check_may_stop(*, policy: PolicyConfig, record: RequestRecord, actor: str, is_admin: bool,
                   person: Filer | None = None) -> None:
    """The requester, an approver of the request's team and stage (by id, or through the Slack user group or e-mail
    the bot vouched for in ``person``), or an admin; else ``Forbidden``."""
    if is_admin or actor == record.requester:
        return
    who = person if person is not None and person.actor == actor else Filer(actor=actor)
    if approval_basis(policy, team=record.team, stage=Stage(record.stage), person=who) is not None:
        return
    raise Forbidden("only the requester, an approver for the request's team and stage, or an admin can stop it",
                    code="not_allowed_to_stop")


def _check_stoppable(*, engine: Engine, policy: PolicyConfig, request_id: str, actor: str, is_admin: bool,
                     person: Filer | None) -> None:
    with new_session(engine) as session:
        record = get_request_or_raise(session=session, request_id=request_id)
        check_may_stop(policy=policy, record=record, actor=actor, is_admin=is_admin, person=person)
        if record.status != RequestStatus.RUNNING:
            raise Conflict(f"the request is {record.status} and has no running job to stop",
                           current_state=record.status, code="not_running")
        if running_job_for(session=session, request_id=request_id) is None:
            raise Conflict("only a job gpuops launched can be stopped from here; stop this one where it runs",
                           current_state=record.status, code="not_stoppable")


def stop_request(*, engine: Engine, env: LaunchEnvironment, request_id: str, actor: str, is_admin: bool,
                 reason: str | None, now: datetime, person: Filer | None = None) -> str:
    """Ask for the request's running job to stop; returns the job name. ``person``: what the bot vouched for
    about the person asking (e-mail, Slack user groups), for approver groups that list those.

    No database transaction is held while the platform is called.
    """
    _check_stoppable(engine=engine, policy=env.policy, request_id=request_id, actor=actor, is_admin=is_admin,
                     person=person)
    try:
        return stop_job(engine=engine, env=env, request_id=request_id, actor=actor, now=now, reason=reason)
    except NotFound:  # the job ended between the check and the call
        with new_session(engine) as session:
            status = get_request_or_raise(session=session, request_id=request_id).status
        raise Conflict("the job ended before it could be stopped", current_state=status, code="not_running") from None
