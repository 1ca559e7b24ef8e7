"""FastAPI dependencies, as ``Annotated`` aliases in one place.

The cheap ones are ``async`` so they run on the event loop instead of costing a worker-thread hop each.
"""

from __future__ import annotations

import hmac
import math
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Annotated, Any, TypeVar

from fastapi import Depends, Header, Path, Request, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel
from sqlmodel import Session
from starlette.exceptions import HTTPException

from contract.actors import ACTOR_PATTERN
from contract.errors import Forbidden, RateLimited, Unauthorized
from contract.text import Text
from policy.errors import RequestError
from service.api.state import ServiceState
from service.store.db import new_session

T = TypeVar("T")
_bearer = HTTPBearer(auto_error=False, description="a token from GPUOPS_API_TOKENS")


async def get_state(request: Request) -> ServiceState:
    state: ServiceState = request.app.state.gpuops
    return state


StateDep = Annotated[ServiceState, Depends(get_state)]


async def get_session(state: StateDep) -> AsyncIterator[Session]:
    # Creating a session touches no connection; endpoints release it (``released``) before they return.
    with new_session(state.engine) as session:
        yield session


def released(session: Session, value: T) -> T:
    """End the session's transaction before FastAPI serialises ``value``.

    Serialising a sync endpoint's answer waits for a worker thread; holding a pooled connection (and, on SQLite, the
    write lock) across that wait can starve every other request under load.
    """
    session.close()
    return value


def json_bytes(model: BaseModel) -> bytes:
    """``model.model_dump_json()`` as the UTF-8 bytes a response sends, without decoding them to text and back."""
    return model.__pydantic_serializer__.to_json(model)


def json_response(session: Session, model: BaseModel, *, status_code: int = 200) -> Response:
    """Release the session and answer with ``model`` already serialised (no second validation pass)."""
    session.close()
    return Response(content=json_bytes(model), status_code=status_code, media_type="application/json")


SessionDep = Annotated[Session, Depends(get_session)]
RequestId = Annotated[Text, Path(min_length=1, max_length=64, description="req_ and 16 hex digits")]


@dataclass(frozen=True)
class Actor:
    """Who is calling: ``slack:W:U`` for a person the bot acts for, else ``token:<role>``."""

    id: str
    role: str
    on_behalf: bool = False

    @property
    def is_admin(self) -> bool:
        return self.role == "admin"


def _role_for(state: ServiceState, token: str) -> str | None:
    role = None
    for known, known_role in state.tokens.items():
        if hmac.compare_digest(known.encode(), token.encode()):
            role = known_role
    return role


async def get_actor(
    state: StateDep,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
    x_gpuops_actor: Annotated[str | None, Header(description="bot tokens only: slack:<workspace>:<user>",
                                                 pattern=ACTOR_PATTERN.pattern)] = None,
) -> Actor:
    if credentials is None or credentials.scheme.lower() != "bearer":
        raise Unauthorized("send Authorization: Bearer <token>", code="missing_token")
    role = _role_for(state, credentials.credentials)
    if role is None:
        raise Unauthorized("unknown token", code="unknown_token")
    if x_gpuops_actor is None:
        return Actor(id=f"token:{role}", role=role)
    if role != "bot":
        raise Forbidden("only a bot token may act for a person (X-Gpuops-Actor)", code="actor_not_allowed")
    if not ACTOR_PATTERN.match(x_gpuops_actor):
        raise RequestError("X-Gpuops-Actor must look like slack:<workspace>:<user>", code="invalid_actor")
    return Actor(id=x_gpuops_actor, role=role, on_behalf=True)


ActorDep = Annotated[Actor, Depends(get_actor)]


async def plain_actor(request: Request, state: ServiceState) -> Actor | None:
    """``get_actor``'s answer (or what it raises) for a request whose X-Gpuops-Actor header, when sent, passes the
    header's declared pattern; None when it does not, since FastAPI's own check of the header answers that one."""
    on_behalf = request.headers.get("x-gpuops-actor")
    if on_behalf is not None and ACTOR_PATTERN.fullmatch(on_behalf) is None:
        return None
    return await get_actor(state, await _bearer(request), on_behalf)


async def json_object(request: Request) -> dict[str, Any] | None:
    """The body when it is plainly a JSON object sent as ``application/json``, read as FastAPI reads a body model's
    JSON; None for anything else (an empty or broken body, another content type), which FastAPI's reading answers."""
    kind = request.headers.get("content-type")
    if kind is None or kind.partition(";")[0].strip().lower() != "application/json":
        return None
    try:
        if not await request.body():
            return None
    except HTTPException:
        raise  # the body limit's 413, which FastAPI's reading lets through too
    except Exception:  # noqa: BLE001 - FastAPI's reading answers whatever this is (a client gone mid-body: 400)
        return None
    try:
        document = await request.json()
    except (ValueError, RecursionError):
        return None
    return document if isinstance(document, dict) else None


async def get_writer(actor: ActorDep) -> Actor:
    if actor.role not in ("bot", "admin"):
        raise Forbidden(f"a {actor.role} token cannot change anything", code="read_only_token")
    return actor


WriterDep = Annotated[Actor, Depends(get_writer)]


def check_rate_limit(state: ServiceState, subject: str) -> None:
    """Per-requester limit from the policy (requests per minute, fixed one-minute windows)."""
    limit = state.policy.rate_limit_per_minute
    window = int(time.time() // 60)
    count, ttl = state.cache.incr(f"rl:{subject}:{window}", ttl_seconds=60)
    if count > limit:
        state.metrics.rate_limited.inc()
        raise RateLimited(f"more than {limit} requests a minute; try again shortly",
                          retry_after=max(1, math.ceil(ttl)))
