"""Digest claims: one bot replica per channel and day."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Response

from contract.digests import DigestClaim, DigestClaimed, DigestDone
from service import digest_claims
from service.api.deps import SessionDep, StateDep, WriterDep
from service.clock import utcnow

router = APIRouter(tags=["digests"])


@router.post("/v1/digests/claim", response_model=DigestClaimed, status_code=201)
def claim_digest(body: DigestClaim, state: StateDep, session: SessionDep, actor: WriterDep) -> DigestClaimed:
    """201 when this caller may post the digest; 409 when another replica has it."""
    state.policy.team(body.team)  # an unknown team is refused, naming the known ones
    digest_claims.claim_digest(session=session, channel=body.channel, date=body.date, team=body.team, actor=actor.id,
                         now=utcnow())
    return DigestClaimed(claimed=True)


@router.post("/v1/digests/{channel}/{date}/done", status_code=204)
def finish_digest(
    channel: Annotated[str, Path(max_length=256)], date: Annotated[str, Path(pattern=r"^\d{4}-\d{2}-\d{2}$")],
    body: DigestDone, session: SessionDep, _actor: WriterDep,
) -> Response:
    digest_claims.finish_digest(session=session, channel=channel, date=date, ok=body.ok, detail=body.detail,
                                now=utcnow())
    return Response(status_code=204)
