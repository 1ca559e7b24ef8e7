"""The policy's workspace and channel lists, applied to every Slack request before any listener runs.

The decision is made on the acknowledgement path, so it may not wait on the service: the policy is kept in memory
and read again in the background once it is older than a minute (it changes when the service is redeployed). Only
before the first read has finished does a request wait for it, and then for at most a second; if there is still no
policy the person is told to try again, since without it nothing says whether gpuops may answer them.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor
from typing import Any

from slack_bolt import BoltContext, BoltRequest, BoltResponse

from bot.client import ServiceClient
from bot.error_messages import TRY_AGAIN, user_message
from bot.limits import section
from contract.actors import slack_user
from contract.errors import UpstreamError
from policy.access import slack_refusal
from policy.config import PolicyConfig
from policy.errors import GpuopsError

log = logging.getLogger(__name__)
POLICY_TTL_SECONDS = 60.0
FIRST_READ_WAIT_SECONDS = 1.0  # inside Slack's 3 s for the acknowledgement, with room for the rest of it


class PolicyWatch:
    """The policy in force as last read from the service; reads run on a thread of their own, one at a time."""

    def __init__(self, *, ttl: float = POLICY_TTL_SECONDS) -> None:
        self._ttl = ttl
        self._policy: PolicyConfig | None = None
        self._read_at: float | None = None
        self._reading = False
        self._failure: GpuopsError | None = None  # why the last read failed; None after a good read
        self._changed = threading.Condition()

    def refresh(self, service: ServiceClient) -> None:
        """Read the policy again in the background unless a read is already under way."""
        with self._changed:
            if self._reading:
                return
            self._reading = True
        threading.Thread(target=self._read, args=(service,), name="gpuops-policy", daemon=True).start()

    def _read(self, service: ServiceClient) -> None:
        failure: GpuopsError | None = None
        try:
            policy: PolicyConfig | None = PolicyConfig.model_validate(service.get_policy().policy)
        except UpstreamError as exc:  # the service's own words say it all; a traceback would only bury them
            log.warning("could not read the policy from the service (%s); keeping the last one read", exc.message)
            policy, failure = None, exc
        except Exception:  # the last policy read stays in force; a later request tries again
            log.warning("could not read the policy from the service; keeping the last one read", exc_info=True)
            policy = None
        with self._changed:
            self._failure = failure
            self._policy = policy or self._policy
            self._read_at = time.monotonic()
            self._reading = False
            self._changed.notify_all()

    @property
    def failure(self) -> GpuopsError | None:
        """Why the last read failed, when it did."""
        with self._changed:
            return self._failure

    def wait_idle(self, timeout: float) -> bool:
        """True once no read is under way, within ``timeout`` seconds."""
        with self._changed:
            return self._changed.wait_for(lambda: not self._reading, timeout)

    def current(self, service: ServiceClient) -> PolicyConfig | None:
        """The policy to decide with now; a stale one starts a background read. None: none could be read yet."""
        with self._changed:
            policy, read_at = self._policy, self._read_at
        if policy is None or read_at is None or time.monotonic() - read_at > self._ttl:
            self.refresh(service)
        if policy is not None:
            return policy
        self.wait_idle(FIRST_READ_WAIT_SECONDS)
        with self._changed:
            return self._policy


def channel_of(body: dict[str, Any]) -> str | None:
    """The channel a request comes from; None for App Home and modals, which are no channel."""
    if "command" in body:
        return body.get("channel_id") or None
    event = body.get("event")
    if isinstance(event, dict):
        return None if event.get("type") == "app_home_opened" else event.get("channel") or None
    container = body.get("container") or {}
    if container.get("type") == "view" or body.get("type") == "view_submission":
        return None
    return container.get("channel_id") or (body.get("channel") or {}).get("id") or None


def mention(actor: str) -> str:
    user = slack_user(actor)
    return f"<@{user}>" if user else actor


def tell(body: dict[str, Any], context: BoltContext, text: str) -> None:
    """The refusal, privately, wherever the person was: in the channel, in App Home, or by direct message."""
    user, event = context.user_id, body.get("event") or {}
    if body.get("response_url"):
        assert context.respond is not None
        context.respond(response_type="ephemeral", replace_original=False, text=text)
    elif event.get("type") == "app_home_opened" and user:
        context.client.views_publish(user_id=user, view={"type": "home", "blocks": [section(text)]})
    elif event.get("type") == "app_mention" and user and event.get("channel"):
        context.client.chat_postEphemeral(channel=event["channel"], user=user, text=text)
    elif user and body.get("type") in ("block_actions", "view_submission"):
        context.client.chat_postMessage(channel=user, text=text)
    else:  # other events: nobody is waiting for an answer
        log.info("dropped a %s event from outside the policy's Slack lists", event.get("type") or body.get("type"))


def refuse_outside_lists(service: ServiceClient, watch: PolicyWatch, executor: Executor
                         ) -> Callable[..., BoltResponse | None]:
    """Bolt middleware: requests from a workspace or channel the policy leaves out stop here, with a private reply.

    The reply goes out on ``executor`` after Slack has its acknowledgement, like every other slow piece of work.
    """

    def told(body: dict[str, Any], context: BoltContext, text: str) -> None:
        try:
            tell(body, context, text)
        except Exception:  # logged with its traceback; the request was refused either way
            log.exception("could not tell user %s that gpuops refused their request", context.user_id)

    # Bolt passes middleware arguments by name, so the signature must say req, resp, next and context.
    def middleware(req: BoltRequest, resp: BoltResponse, next: Callable[[], BoltResponse],  # noqa: ARG001
                   context: BoltContext) -> BoltResponse | None:
        body = req.body
        policy = watch.current(service)
        if policy is None:
            failure = watch.failure
            text = TRY_AGAIN if failure is None else user_message(failure, operation="read_policy")
        else:
            refusal = slack_refusal(policy, workspace=context.team_id, enterprise=context.enterprise_id,
                                    channel=channel_of(body))
            if refusal is None:
                return next()
            log.info("refused a request from %s %s (%s)", refusal.place, refusal.id, refusal.code)
            text = refusal.message(mention)
        executor.submit(told, body, context, text)
        return BoltResponse(status=200, body="")

    return middleware
