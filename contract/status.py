"""The status of a request on the wire, and the groups of statuses the bot and the service both reason about.

The transitions between them are the service's (``service.requests.states.TRANSITIONS``).
"""

from __future__ import annotations

from enum import StrEnum


class RequestStatus(StrEnum):
    NEEDS_INPUT = "needs_input"  # waiting for the requester to answer questions; no plan yet
    PENDING_APPROVAL = "pending_approval"
    AUTO_APPROVED = "auto_approved"
    APPROVED = "approved"
    LAUNCHING = "launching"
    RUNNING = "running"
    SUCCEEDED = "succeeded"
    FAILED = "failed"
    STOPPED = "stopped"
    REJECTED = "rejected"
    EXPIRED = "expired"
    CANCELLED = "cancelled"
    DENIED = "denied"
    DRY_RUN = "dry_run"  # launched in dry-run mode: the request that would have been sent is attached, nothing ran
    ESTIMATE = "estimate"  # asked for as a plan to read ("quote only, don't launch"): takes no approval, never launches


S = RequestStatus
# Approved, by people or by policy, and whatever the job did after that.
APPROVED_STATES: frozenset[RequestStatus] = frozenset(
    {S.APPROVED, S.AUTO_APPROVED, S.LAUNCHING, S.RUNNING, S.SUCCEEDED, S.FAILED, S.STOPPED, S.DRY_RUN}
)
# No longer waiting for a decision: approved (as above) or turned down, timed out or withdrawn.
DECIDED_STATES: frozenset[RequestStatus] = APPROVED_STATES | {S.REJECTED, S.DENIED, S.EXPIRED, S.CANCELLED}
# A plan that may still launch: capacity proposed, approved or bought for any other request is money for nothing.
OPEN_STATES: frozenset[RequestStatus] = frozenset({S.PENDING_APPROVAL, S.APPROVED, S.AUTO_APPROVED})
