"""``/gpu`` and mentions of the bot: acknowledge at once, then plan, post and record where (lazy listeners).

Each listener is registered as ``ack`` + ``lazy``: Bolt answers Slack as soon as ``ack`` returns and runs the lazy
part on its thread pool, so a slow service can never push the acknowledgement past Slack's 3 s.
"""

from __future__ import annotations

import logging
import re
import time
from typing import Any

from bot import questions, views
from bot.chart import render_spend_chart
from bot.deps import Deps
from bot.error_messages import user_message
from bot.limits import escape, section
from bot.posting import post_request, update_request
from contract.actors import actor_id
from contract.status import RequestStatus
from policy.config import PolicyConfig
from policy.errors import GpuopsError

log = logging.getLogger(__name__)
REPLAY_GRACE_SECONDS = 5.0  # how long the first delivery of a command gets to post before a repeat does
SUBCOMMANDS = {"help", "spend", "jobs", "status", "policy", "stop", "cancel"}
TAKES_TEXT = {"stop", "cancel"}  # subcommands whose argument may run on (a reason)
_MENTION = re.compile(r"<@[A-Z0-9]+(?:\|[^>]*)?>")
# A question about spend or running jobs asked in words ("what did team-nlp spend this month?", "what's running?"):
# the subcommand's answer, not a plan refused for want of a model size. Any number or word of training work makes
# it a request ("fine-tune 7B, don't spend more than $50").
_SPEND_QUESTION = re.compile(r"\b(?:spen[dt]|spending|budget|burn(?:ed|t|ing)?|bill(?:ed)?|costs?\s+so\s+far"
                             r"|forecast(?:ed|ing)?|month[\s-]to[\s-]date|mtd"
                             # "how much did last month cost", "what did this week cost us"
                             r"|(?:last|this|previous)\s+(?:month|week|quarter)(?:'s)?\s+(?:cost|bill)"
                             r"|did\s+(?:last|this|previous)\s+(?:month|week|quarter)\s+cost)\b", re.I)
_JOBS_QUESTION = re.compile(r"\b(?:what(?:'?s|\s+is|\s+are)?|which|any)\s+(?:jobs?\s+)?(?:is\s+|are\s+)?running\b"
                            r"|\b(?:show|list|see)(?:\s+me)?\s+(?:all\s+)?(?:the\s+|my\s+|our\s+)?(?:running|active|live)\s+jobs\b",
                            re.I)
# "status of req_abc123", "where is req_abc123 at?": the request named, its status
_REQUEST_ID = re.compile(r"\breq_[0-9a-z]+\b", re.I)
_STATUS_WORDS = re.compile(r"\b(?:status|state|where|how\s+is|what\s+happened|progress|update|doing|stuck)\b", re.I)
_WORK_WORDS = re.compile(r"\d|\b(?:fine[\s-]?tun\w*|finetun\w*|pre-?train\w*|train\w*|lora|qlora|sft|dpo|rlhf|grpo|ppo"
                         r"|sweep|distill\w*|eval\w*|gpus?|h100s?|a100s?|nodes?|instances?)\b", re.I)
_TEAM_SAID = re.compile(r"\bteam[-_][a-z0-9][a-z0-9_-]*", re.I)
# The other subcommands asked in words: "what is the policy?", "what can you do?"
_POLICY_QUESTION = re.compile(r"^\s*(?:(?:what(?:'s|\s+is|\s+are)|show(?:\s+me)?)\s+(?:the\s+|our\s+)?(?:current\s+)?"
                              r"(?:policy|policies|approval\s+rules|approvers|thresholds)"
                              # "who needs to approve my request?", "who can approve this?"
                              r"|who\s+(?:needs\s+to|has\s+to|must|can|should|will)\s+approve(?:\s+(?:my|this|the|our)"
                              r"(?:\s+request)?|\s+it)?)\s*\??\s*$", re.I)
_HELP_QUESTION = re.compile(r"^\s*(?:what\s+can\s+(?:you|i)\s+(?:do|ask)|how\s+do\s+i\s+use\s+(?:this|you|gpuops)"
                            r"|usage|commands)\s*\??\s*$", re.I)
# A spend question that names what the money went on ("what did team-nlp spend this month on training?", "how much
# have we spent on GPUs?"): those words name no work to plan unless a number or a task is said with them.
_ASKED_SPEND = re.compile(r"\b(?:what|how\s+much|show|where)\b.*\b(?:spen[dt]|spending|burn(?:ed|t)?)\b", re.I)
# What an earlier job cost, asked in words ("what did the 70B lora last week cost vs estimate?", "actual vs estimate
# for last week's jobs"): the finished jobs with their cost against the estimate, not a new plan of the work named
_PAST_COST_QUESTION = re.compile(r"\b(?:what|how\s+much)\s+did\b.{0,80}?\bcost\b"
                                 r"|\bactual(?:\s+cost)?s?\s+(?:vs\.?|versus|against|compared\s+to)\s+(?:the\s+)?estimat"
                                 r"|\bhow\s+(?:far\s+off|accurate)\s+(?:was|were)\b", re.I)
FINISHED_WORDS = {"done", "finished", "past", "recent", "history", "ended", "completed"}
# An approval or rejection typed ("approve req_abc123", "lgtm", "reject my last request"): never recorded from text,
# so the answer says where it is (the plan message's buttons), instead of planning the words as a request
_DECIDED_IN_WORDS = re.compile(r"^\s*(?:approved?|reject(?:ed)?|deny|denied|lgtm|ship\s+it)\b", re.I)
_SPEND_ON = re.compile(r"\b(?:training|gpus?|h100s?|a100s?|nodes?|instances?|compute)\b", re.I)


def from_slack(text: str) -> str:
    """What the person typed: Slack sends &, < and > escaped in command and message text."""
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


def split_subcommand(text: str) -> tuple[str, str]:
    """(``help``|``spend``|…, argument) for a subcommand, else (``request``, the text)."""
    stripped = text.strip()
    if not stripped:
        return "help", ""
    word, _, rest = stripped.partition(" ")
    name = word.lower()
    if name in SUBCOMMANDS and (name in TAKES_TEXT or len(rest.split()) <= 1):
        return name, rest.strip()
    if (named := _REQUEST_ID.search(stripped)) is not None and _STATUS_WORDS.search(stripped) \
            and not _WORK_WORDS.search(_REQUEST_ID.sub(" ", stripped)):
        return "status", named.group(0)  # "status of req_abc123": the request's status, not a plan of it
    if _ASKED_SPEND.search(stripped) and not _WORK_WORDS.search(_SPEND_ON.sub(" ", _TEAM_SAID.sub(" ", stripped))):
        team = _TEAM_SAID.search(stripped)
        return "spend", team.group(0).lower() if team else ""
    if _DECIDED_IN_WORDS.match(stripped) and not _WORK_WORDS.search(_REQUEST_ID.sub(" ", stripped)):
        named = _REQUEST_ID.search(stripped)
        return "approve", named.group(0) if named else ""
    if _POLICY_QUESTION.match(stripped):
        return "policy", ""
    if _HELP_QUESTION.match(stripped):
        return "help", ""
    if not _WORK_WORDS.search(stripped):
        if _SPEND_QUESTION.search(stripped):
            team = _TEAM_SAID.search(stripped)
            return "spend", team.group(0).lower() if team else ""
        if _JOBS_QUESTION.search(stripped):
            return "jobs", ""
    if (asked := _PAST_COST_QUESTION.search(stripped)) is not None \
            and not _WORK_WORDS.search(stripped[asked.end():].partition("?")[2]):
        return "jobs", "done"  # a question alone; work asked for after it ("… last time? plan the same") is planned
    return "request", stripped


def create_and_post(deps: Deps, client: Any, *, team_id: str, user_id: str, channel: str, text: str,
                    key: str, respond: Any = None) -> str | None:
    """Plan ``text`` for the user and post it in ``channel``; the message ts, None when another delivery did.

    Slack may deliver the same command or event twice, to two replicas at once. The service creates the request
    once (the Idempotency-Key); only the delivery whose call created it posts, unless the one that did never
    gets its message recorded (it died): then a replay posts after a grace period.
    """
    body = {"text": text, "channel": channel, "timezone": deps.user_zone(client, user_id),
            **deps.requester_facts(client, user_id)}
    req, created = deps.service.create_request(actor=actor_id(team_id, user_id), body=body, idempotency_key=key)
    if not created and posted_elsewhere(deps, req.id, already=req.slack_message is not None):
        log.info("request %s is posted by the delivery that created it; this repeat changes nothing", req.id)
        return None
    ts = questions.post_or_questions(client, req, channel=channel, post_plan=lambda planned: post_request(
        client, planned, channel=channel, now=deps.clock(), sent=deps.sent, respond=respond))
    if ts is not None:  # None: answered through the response_url, which leaves no message to record
        deps.service.put_slack_message(request_id=req.id, channel=channel, ts=ts)
    return ts


def posted_elsewhere(deps: Deps, request_id: str, *, already: bool) -> bool:
    """True once the request's message is recorded; waits up to REPLAY_GRACE_SECONDS for it."""
    deadline = time.monotonic() + REPLAY_GRACE_SECONDS
    while not already and time.monotonic() < deadline:
        time.sleep(0.25)
        already = deps.service.get_request_or_questions(request_id=request_id).slack_message is not None
    return already


def _policy(deps: Deps) -> PolicyConfig:
    return PolicyConfig.model_validate(deps.service.get_policy().policy)


def _spend(deps: Deps, client: Any, respond: Any, *, channel: str, team: str) -> None:
    team = team or _policy(deps).team_for_channel(channel) or ""
    spend = deps.service.get_spend(team=team or None)
    respond(response_type="in_channel", text=f"Spend for {spend.team or 'the team'}",
            blocks=views.spend_blocks(spend))
    if spend.daily:
        png = render_spend_chart(spend, now=deps.clock())
        client.files_upload_v2(channel=channel, content=png, filename="spend.png",
                               title=f"Daily spend, {spend.team or 'team'}")


def _stop(deps: Deps, client: Any, respond: Any, command: dict[str, Any], arg: str) -> None:
    request_id, _, reason = arg.partition(" ")
    if not _REQUEST_ID.fullmatch(request_id):  # "stop my job": which one is for the person to say
        respond(response_type="ephemeral", text=_which_request("stop", request_id))
        return
    req = deps.service.stop_request(request_id=request_id, actor=actor_id(command["team_id"], command["user_id"]),
                                    reason=reason.strip() or None,
                                    facts=deps.approver_facts(client, command["user_id"]))
    job = f"`{escape(req.job.name)}`" if req.job else "its job"
    respond(response_type="ephemeral", text=f"Asked to stop {job} of {escape(req.id)}; its thread says when it has.")


def _which_request(verb: str, said: str) -> str:
    """What to type when a request was not named by its id ("cancel my last request" named 'my')."""
    where = "App Home lists your requests with their ids" if verb == "cancel" else "`/gpu jobs` lists the running ones"
    return (f"Say which request by its id: `/gpu {verb} req_… [reason]`"
            + (f" ('{escape(said)}' is not one)" if said else "") + f"; {where}.")


def _cancel(deps: Deps, client: Any, respond: Any, command: dict[str, Any], arg: str) -> None:
    """The requester withdraws a request still waiting for approval, as the Cancel button does; the request's
    message shows it."""
    request_id, _, reason = arg.partition(" ")
    if not _REQUEST_ID.fullmatch(request_id):  # "cancel my last request": which one is for the person to say
        respond(response_type="ephemeral", text=_which_request("cancel", request_id))
        return
    req = deps.service.cancel_request(request_id=request_id, actor=actor_id(command["team_id"], command["user_id"]),
                                      reason=reason.strip() or None)
    update_request(client, req, now=deps.clock(), sent=deps.sent)
    respond(response_type="ephemeral", text=f"Cancelled {escape(req.id)}.")


def _run_subcommand(deps: Deps, client: Any, respond: Any, command: dict[str, Any], name: str, arg: str) -> None:
    if name == "help":
        respond(response_type="ephemeral", text="gpuops help", blocks=views.help_blocks())
    elif name == "spend":
        _spend(deps, client, respond, channel=command["channel_id"], team=arg)
    elif name == "jobs" and arg.lower() in FINISHED_WORDS:
        jobs = deps.service.list_jobs()  # newest first; the finished among them are shown
        respond(response_type="ephemeral", text="Finished jobs",
                blocks=views.finished_jobs_blocks(jobs, now=deps.clock()))
    elif name == "jobs":
        jobs = deps.service.list_jobs(status="running")
        respond(response_type="ephemeral", text="Running jobs", blocks=views.jobs_blocks(jobs))
    elif name == "status":
        if not arg:
            respond(response_type="ephemeral", text="Say which request: `/gpu status req_…`")
            return
        req = deps.service.get_request(request_id=arg)
        respond(response_type="ephemeral", text=f"Status of {req.id}", blocks=views.status_blocks(req,
                                                                                              now=deps.clock()))
    elif name == "stop":
        _stop(deps, client, respond, command, arg)
    elif name == "cancel":
        _cancel(deps, client, respond, command, arg)
    elif name == "policy":
        policy = deps.service.get_policy()
        respond(response_type="ephemeral", text="Policy in force", blocks=views.policy_blocks(policy))
    elif name == "approve":
        respond(response_type="ephemeral", text=typed_approval(arg))


def typed_approval(request_id: str) -> str:
    """The answer to an approval typed instead of clicked: where approvals are recorded, and that words never are."""
    which = f"{escape(request_id)}'s" if request_id else "the request's"
    return (f"Approvals are recorded only with the Approve or Reject button on {which} message, by an approver the "
            "policy names (`/gpu policy` lists them); a typed approval never counts.")


def _private_error(respond: Any, error: Exception, operation: str) -> None:
    respond(response_type="ephemeral", replace_original=False, text=user_message(error, operation=operation))


def ack_now(ack: Any) -> None:
    """The whole acknowledgement: the work happens in the lazy listener after Slack has its answer."""
    ack()


class CommandHandlers:
    """``/gpu``, mentions and App Home; each runs as a lazy listener after ``ack_now``."""

    def __init__(self, deps: Deps) -> None:
        self.deps = deps

    def handle_gpu_command(self, command: dict[str, Any], client: Any, respond: Any) -> None:
        name, arg = split_subcommand(from_slack(command.get("text", "")))
        try:
            if name == "request":
                create_and_post(self.deps, client, team_id=command["team_id"], user_id=command["user_id"],
                                channel=command["channel_id"], text=arg, key=f"slack:{command['trigger_id']}",
                                respond=respond)
            else:
                _run_subcommand(self.deps, client, respond, command, name, arg)
        except Exception as error:  # noqa: BLE001 - a handler's last word: user_message tells the person and logs a cid
            _private_error(respond, error, f"/gpu {name}")

    def handle_mention_command(self, event: dict[str, Any], body: dict[str, Any], client: Any) -> None:
        text = from_slack(_MENTION.sub("", event.get("text", ""))).strip()
        user, channel = event.get("user", ""), event.get("channel", "")
        try:
            name, arg = split_subcommand(text)
            if name == "approve":  # "@gpuops approve req_…": no command records it either
                client.chat_postEphemeral(channel=channel, user=user, text=typed_approval(arg))
                return
            if name != "request":  # "@gpuops what did team-nlp spend?": the command that answers it, to type
                command = f"`/gpu {name}{' ' + arg if arg else ''}`"
                client.chat_postEphemeral(channel=channel, user=user, text=f"{command} answers that. Mention me "
                                          "with a request, e.g. `@gpuops fine-tune 7B by Friday`, or use `/gpu help`.")
                return
            create_and_post(self.deps, client, team_id=body.get("team_id") or event.get("team", ""), user_id=user,
                            channel=channel, text=text, key=f"slack:{body.get('event_id', event.get('ts'))}")
        except Exception as error:  # noqa: BLE001 - a handler's last word: user_message tells the person and logs a cid
            client.chat_postEphemeral(channel=channel, user=user, text=user_message(error, operation="mention"))

    def handle_home_view(self, event: dict[str, Any], body: dict[str, Any], client: Any) -> None:
        if event.get("tab", "home") == "home":
            publish_home(self.deps, client, team_id=body.get("team_id", ""), user=event.get("user", ""))


def publish_home(deps: Deps, client: Any, *, team_id: str, user: str) -> None:
    """App Home for ``user``: approvals waiting for them (with buttons), then their own requests."""
    actor = actor_id(team_id, user)
    try:
        mine = deps.service.list_requests(requester=actor, limit=20).items
        pending = deps.service.list_requests(status=RequestStatus.PENDING_APPROVAL, limit=100).items
    except GpuopsError as error:
        text = user_message(error, operation="home")
        client.views_publish(user_id=user, view={"type": "home", "blocks": [section(text)]})
        return
    me = approver_entries(actor, deps.approver_facts(client, user))  # named, or through a user group or e-mail
    waiting = [r for r in pending if me & {_folded(e) for e in r.eligible_approvers} and r.requester != actor
               and actor not in {a.approver for a in r.approvals}]
    client.views_publish(user_id=user, view=views.home_view(mine, waiting, now=deps.clock()))


def approver_entries(actor: str, facts: dict[str, Any]) -> set[str]:
    """The approver-group entries that name this person: their actor id, their user groups, their e-mail."""
    entries = {actor, *(f"usergroup:{g}" for g in facts.get("approver_groups") or [])}
    if facts.get("approver_email"):
        entries.add(_folded(f"email:{facts['approver_email']}"))
    return entries


def _folded(entry: str) -> str:
    """E-mails compare without case, as the service compares them."""
    return entry.casefold() if entry.startswith("email:") else entry


def register(app: Any, deps: Deps) -> None:
    """Attach the command, mention and App Home listeners to ``app``."""
    handlers = CommandHandlers(deps)
    app.command("/gpu")(ack=ack_now, lazy=[handlers.handle_gpu_command])
    app.event("app_mention")(ack=ack_now, lazy=[handlers.handle_mention_command])
    app.event("app_home_opened")(ack=ack_now, lazy=[handlers.handle_home_view])
