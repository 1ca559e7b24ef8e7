"""Digest claims: one bot replica per channel and day."""

from __future__ import annotations

from datetime import date
from typing import Annotated

from fastapi import APIRouter, Path, Response

from contract.approvals import MAX_NAME_CHARS
from contract.digests import DigestClaim, DigestClaimed, DigestDone
from contract.errors import Conflict, NotFound
from contract.text import Text
from policy.errors import RequestError
from service import digest_claims
from service.api.deps import SessionDep, StateDep, WriterDep
from service.api.openapi import raises
from service.clock import utcnow

router = APIRouter(tags=["digests"])


@router.post("/v1/digests/claim", response_model=DigestClaimed, status_code=201,
             responses=raises(Conflict, RequestError))
def claim_digest(body: DigestClaim, state: StateDep, session: SessionDep, actor: WriterDep) -> DigestClaimed:
    """201 when this caller may post the digest; 409 when another replica has it."""
    state.policy.team(body.team)  # an unknown team is refused, naming the known ones
    digest_claims.claim_digest(session=session, channel=body.channel, date=body.date, team=body.team, actor=actor.id,
                         now=utcnow())
    return DigestClaimed(claimed=True)


@router.post("/v1/digests/{channel}/{date}/done", status_code=204, responses=raises(NotFound, Conflict))
def finish_digest(
    channel: Annotated[Text, Path(max_length=MAX_NAME_CHARS)], day: Annotated[date, Path(alias="date")],
    body: DigestDone, session: SessionDep, _actor: WriterDep,
) -> Response:
    digest_claims.finish_digest(session=session, channel=channel, date=day.isoformat(), ok=body.ok, detail=body.detail,
                                now=utcnow())
    return Response(status_code=204)
