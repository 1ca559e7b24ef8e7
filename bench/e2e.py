"""End to end on loopback with every part real: Postgres, Redis, ``gpuops service``, ``gpuops worker`` (live launches),
``gpuops bot`` (HTTP mode), the test suite's fake Slack Web API, moto plus the AWS JSON fake.

One story: a signed slash command → the plan posted → a non-approver's click refused → the approver's click → the
message updated → CreateTrainingJob at the SageMaker stand-in → the job driven to Completed with billable time → the
tracker records it → the thread reply with actual against estimated cost → a bot replica with the digest scheduler
posts the digest as one message with its chart (the three calls of ``files_upload_v2``). Prints each step's
latency and exits non-zero when a step fails. ``python -m bench.e2e``; ``tests/e2e`` runs the same story under pytest.
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx

from bench.harness import (
    BOT_TOKEN,
    HOST,
    POSTGRES_URL,
    REDIS_HOST,
    REDIS_PORT,
    AwsStandIns,
    Processes,
    SlackRequests,
    bot_argv,
    bot_env,
    button_value,
    free_port,
    fresh_database,
    migrate,
    reachable,
    run_folder,
    service_argv,
    service_env,
    table,
    wait_until,
    worker_argv,
    write_policy_file,
)

DEFAULT = False  # needs Postgres and Redis and a minute: only ``make e2e`` runs it
REQUEST = "fine-tune 13B on 5B tokens by next Friday"  # above auto-approval: it waits for an approver
REQUESTER, LEAD, STRANGER = "U0ASKER", "U0LEAD1", "U0STRANGER"
PLAN_CHANNEL, DIGEST_CHANNEL = "C0PLANS", "C0DIGEST"
REDIS_DB = 12  # of the shared Redis, kept for this scenario
STEP_TIMEOUT = 30.0


@dataclass
class Step:
    name: str
    seconds: float | None = None
    ok: bool = False
    detail: str = ""


@dataclass
class Outcome:
    steps: list[Step] = field(default_factory=list)
    cold_starts: dict[str, float] = field(default_factory=dict)
    rss_mb: dict[str, float] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return bool(self.steps) and all(s.ok for s in self.steps)

    def report(self) -> str:
        rows = [(s.name, "-" if s.seconds is None else f"{s.seconds * 1000:8.1f}", "ok" if s.ok else "FAILED",
                 s.detail) for s in self.steps]
        lines = [table(("step", "latency ms", "result", "detail"), rows), ""]
        lines.append("cold start (spawn → healthy): " + ", ".join(f"{k} {v:.2f} s" for k, v in
                                                                    self.cold_starts.items()))
        lines.append("resident memory after the story: " + ", ".join(f"{k} {v:.0f} MiB" for k, v in
                                                                       self.rss_mb.items()))
        return "\n".join(lines)


class StepFailed(Exception):
    pass


class Story:
    """The running parts and the requests that walk the story through them."""

    def __init__(self, *, procs: Processes, aws: AwsStandIns, slack: Any, service_url: str, bot_url: str,
                 env: dict[str, str], outcome: Outcome) -> None:
        self.procs, self.aws, self.slack, self.env, self.outcome = procs, aws, slack, env, outcome
        self.service_url, self.events_url = service_url, f"{bot_url}/slack/events"
        self.http = httpx.Client(timeout=10)
        self.signed = SlackRequests(response_url=slack.response_url("e2e"))
        self.ts = self.request_id = self.approve_value = self.job_name = ""
        self.clicked = self.launched = self.completed = self.recorded = 0.0

    def close(self) -> None:
        self.http.close()

    def step(self, name: str, action: Callable[[], tuple[float, str]]) -> None:
        """Run one step (skipped once an earlier one failed): ``action`` returns (latency, detail)."""
        if self.outcome.steps and not self.outcome.steps[-1].ok:
            self.outcome.steps.append(Step(name, detail="not reached"))
            return
        try:
            seconds, detail = action()
            self.outcome.steps.append(Step(name, seconds, True, detail))
        except (StepFailed, AssertionError, LookupError, httpx.HTTPError, RuntimeError) as exc:
            self.outcome.steps.append(Step(name, None, False, f"{type(exc).__name__}: {exc}"[:300]))

    def request(self) -> dict[str, Any]:
        answer = self.http.get(f"{self.service_url}/v1/requests/{self.request_id}",
                               headers={"Authorization": f"Bearer {BOT_TOKEN}"})
        answer.raise_for_status()
        result: dict[str, Any] = answer.json()
        return result

    def event_time(self, kind: str) -> float:
        """When the service recorded the request's last ``kind`` event, on this process's perf_counter clock."""
        answer = self.http.get(f"{self.service_url}/v1/requests/{self.request_id}/audit",
                               headers={"Authorization": f"Bearer {BOT_TOKEN}"})
        answer.raise_for_status()
        stamps = [e["created_at"] for e in answer.json()["items"] if e["type"] == kind]
        if not stamps:
            raise StepFailed(f"no {kind} event on record")
        wall = datetime.fromisoformat(stamps[-1].replace("Z", "+00:00")).timestamp()
        return wall - (time.time() - time.perf_counter())

    def post(self, body: str, headers: dict[str, str]) -> httpx.Response:
        return self.http.post(self.events_url, content=body, headers=headers)

    def replies(self, needle: str) -> list[Any]:
        return [c for c in self.slack.of("chat.postMessage")
                if c.body.get("thread_ts") == self.ts and needle in str(c.body.get("text", ""))]

    # ------------------------------------------------------------------------------------------------ the steps

    def slash_command(self) -> tuple[float, str]:
        body, headers = self.signed.command(REQUEST, user=REQUESTER, channel=PLAN_CHANNEL)
        self.sent = time.perf_counter()
        answer = self.post(body, headers)
        seconds = time.perf_counter() - self.sent
        if answer.status_code != 200:
            raise StepFailed(f"bot answered {answer.status_code}: {answer.text[:200]}")
        return seconds, "signed /gpu acknowledged (HTTP 200)"

    def plan_posted(self) -> tuple[float, str]:
        post = self.slack.wait_for("chat.postMessage", count=1, timeout=STEP_TIMEOUT)[0]
        self.ts = str(post.answer["ts"])
        self.approve_value = button_value(post.blocks, "approve_request")  # "<request id>:<revision shown>"
        self.request_id = self.approve_value.partition(":")[0]
        if not wait_until(lambda: self.request()["slack_message"] is not None, timeout=STEP_TIMEOUT):
            raise StepFailed("the service never learned where the plan was posted")
        summary = post.blocks[0]["text"]["text"] if post.blocks else ""
        return post.at - self.sent, f"{self.request_id} in {post.body.get('channel')}: {summary[:70]}"

    def stranger_refused(self) -> tuple[float, str]:
        before = len(self.slack.of("response"))
        sent = time.perf_counter()
        self.post(*self.signed.action("approve_request", self.approve_value, user=STRANGER, ts=self.ts,
                                      channel=PLAN_CHANNEL)).raise_for_status()
        refusal = self.slack.wait_for("response", count=before + 1, timeout=STEP_TIMEOUT)[before]
        text = str(refusal.body.get("text", ""))
        assert refusal.body.get("response_type") == "ephemeral", refusal.body
        assert self.slack.of("chat.update") == [], "a refused click updated the message"
        assert self.request()["status"] == "pending_approval"
        return refusal.at - sent, f"ephemeral: {text[:70]}"

    def approver_click(self) -> tuple[float, str]:
        self.clicked = time.perf_counter()
        self.post(*self.signed.action("approve_request", self.approve_value, user=LEAD, ts=self.ts,
                                      channel=PLAN_CHANNEL)).raise_for_status()
        updates: list[Any] = []

        def approved() -> bool:
            updates[:] = [c for c in self.slack.of("chat.update") if c.body.get("ts") == self.ts
                          and "Approved" in "".join(str(b.get("text", {}).get("text", "")) for b in c.blocks)]
            return bool(updates)

        if not wait_until(approved, timeout=STEP_TIMEOUT):
            raise StepFailed(f"no chat.update saying Approved; saw {[c.method for c in self.slack.calls]}")
        return updates[0].at - self.clicked, f"chat.update of {self.ts} (Approved by <@{LEAD}>)"

    def launched_at_aws(self) -> tuple[float, str]:
        if not wait_until(lambda: bool(self.aws.fake.calls("CreateTrainingJob")), timeout=STEP_TIMEOUT):
            raise StepFailed(f"no CreateTrainingJob; request is {self.request()['status']}")
        self.launched = time.perf_counter()
        (create,) = self.aws.fake.calls("CreateTrainingJob")
        self.job_name = str(create["TrainingJobName"])
        resources = create["ResourceConfig"]
        return self.launched - self.clicked, (f"{self.job_name}: {resources['InstanceCount']}× "
                                              f"{resources['InstanceType']}, spot "
                                              f"{create.get('EnableManagedSpotTraining', False)}")

    def launch_reply(self) -> tuple[float, str]:
        if not wait_until(lambda: bool(self.replies("Launched")), timeout=STEP_TIMEOUT):
            raise StepFailed(f"no launch reply in the thread; request is {self.request()['status']}")
        reply = self.replies("Launched")[0]
        return reply.at - self.launched, str(reply.body["text"]).split("\n")[0][:80]

    def tracker_completes(self) -> tuple[float, str]:
        estimated_hours = float(self.request()["decision"]["plan"]["estimated_hours"])
        training = max(60, int(estimated_hours * 3600))
        billable = int(training * 0.35)
        start = datetime.now(UTC) - timedelta(seconds=training)
        transitions = [{"Status": s, "StartTime": (start + timedelta(seconds=i * training / 4)).timestamp(),
                        "StatusMessage": s} for i, s in enumerate(("Starting", "Downloading", "Training",
                                                                      "Uploading", "Completed"))]
        self.aws.sagemaker.update(self.job_name, TrainingJobStatus="Completed", SecondaryStatus="Completed",
                                  SecondaryStatusTransitions=transitions, BillableTimeInSeconds=billable,
                                  TrainingTimeInSeconds=training)
        self.completed = time.perf_counter()
        # The running worker tracks once a minute; one more round by a worker run now is what an operator would do.
        self.procs.run("tracker-round", worker_argv(0, once=True), self.env, timeout=120)
        if not wait_until(lambda: self.request()["status"] == "succeeded", timeout=STEP_TIMEOUT):
            raise StepFailed(f"request is {self.request()['status']} after a tracking round")
        self.recorded = self.event_time("job.completed")
        job = self.request()["job"]
        return self.recorded - self.completed, (f"{job['status']}, billable {job['billable_seconds']:.0f} s, "
                                                      f"actual ${job['actual_cost_usd']:,.2f}")

    def completion_reply(self) -> tuple[float, str]:
        if not wait_until(lambda: bool(self.replies("actual")), timeout=STEP_TIMEOUT):
            raise StepFailed("no thread reply with the actual cost")
        reply = self.replies("actual")[0]
        text = str(reply.body["text"])
        assert "estimated" in text, text
        return reply.at - self.recorded, text[text.index("actual"):][:80]

    def digest(self, service_url: str) -> tuple[float, str]:
        port = free_port()
        started = time.perf_counter()
        self.procs.spawn("bot-digest", bot_argv(port), bot_env(service_url=service_url,
                                                              slack_api_url=self.slack.api_url, feed=False,
                                                              digest=True, GPUOPS_BOT_PORT=str(port)),
                         health_url=f"http://{HOST}:{port}/healthz")
        self.slack.wait_for("files.completeUploadExternal", count=1, timeout=STEP_TIMEOUT)
        methods = [c.method for c in self.slack.calls if c.method.startswith("files") or c.method == "upload"]
        assert methods == ["files.getUploadURLExternal", "upload", "files.completeUploadExternal"], methods
        # One post: the chart is shared in the digest channel with the digest's blocks as its message.
        shared = [c for c in self.slack.of("files.completeUploadExternal")
                  if c.body.get("channel_id") == DIGEST_CHANNEL and c.body.get("blocks")]
        if not shared:
            raise StepFailed("no digest message in the digest channel")
        done = shared[0].at
        png = next(c for c in self.slack.calls if c.method == "upload").raw
        assert png.startswith(b"\x89PNG"), png[:8]
        return done - started, f"one message, chart {len(png) // 1024} KiB PNG, via the 3 files_upload_v2 calls"


def run_story(*, database_url: str, redis_url: str, folder: Path, redis_prefix: str = "gpuops:") -> Outcome:
    """Start every part, walk the story, stop everything; the steps with their latencies. The service and worker
    keep their Redis keys under ``redis_prefix``."""
    from tests.bot.fake_slack import FakeSlack

    outcome = Outcome()
    aws = AwsStandIns.start()
    slack = FakeSlack().start()
    try:
        aws.seed_daily_spend()
        with Processes(folder) as procs:
            env = service_env(database_url=database_url, redis_url=redis_url, aws=aws.env,
                              policy_file=write_policy_file(folder, digest_channel=DIGEST_CHANNEL),
                              GPUOPS_REDIS_PREFIX=redis_prefix)
            migrate(procs, env)
            service_port, worker_port, bot_port = free_port(), free_port(), free_port()
            service_url = f"http://{HOST}:{service_port}"
            parts = [
                procs.spawn("service", service_argv(service_port), env, health_url=f"{service_url}/healthz"),
                procs.spawn("worker", worker_argv(worker_port, lease=30), env,
                            health_url=f"http://{HOST}:{worker_port}/healthz"),
                procs.spawn("bot", bot_argv(bot_port), bot_env(service_url=service_url, slack_api_url=slack.api_url),
                            health_url=f"http://{HOST}:{bot_port}/healthz"),
            ]
            outcome.cold_starts = {p.name: p.cold_start or float("nan") for p in parts}
            story = Story(procs=procs, aws=aws, slack=slack, service_url=service_url,
                          bot_url=f"http://{HOST}:{bot_port}", env=env, outcome=outcome)
            try:
                story.step("slash command acknowledged", story.slash_command)
                story.step("plan posted in the channel", story.plan_posted)
                story.step("non-approver's click refused", story.stranger_refused)
                story.step("approver's click → message updated", story.approver_click)
                story.step("CreateTrainingJob at SageMaker", story.launched_at_aws)
                story.step("launch reply in the thread", story.launch_reply)
                story.step("tracker records Completed", story.tracker_completes)  # includes a worker --once start
                story.step("reply: actual vs estimate", story.completion_reply)
                story.step("digest posted with chart", lambda: story.digest(service_url))
                creates = len(aws.fake.calls("CreateTrainingJob"))
                if creates != 1:
                    outcome.steps.append(Step("exactly one launch", None, False, f"{creates} CreateTrainingJob"))
                outcome.cold_starts["bot (digest replica)"] = next(
                    (p.cold_start or float("nan") for p in procs.started if p.name == "bot-digest"), float("nan"))
                outcome.rss_mb = {p.name: sum(p.rss_mb()) for p in procs.started if p.alive}
            finally:
                story.close()
    finally:
        slack.stop()
        aws.close()
    return outcome


@contextlib.contextmanager
def shared_redis_url() -> Iterator[str]:
    """Database ``REDIS_DB`` of the shared Redis, emptied before the story (nothing else uses it)."""
    import redis

    url = f"redis://{REDIS_HOST}:{REDIS_PORT}/{REDIS_DB}"
    client = redis.Redis.from_url(url)
    try:
        client.flushdb()
        yield url
    finally:
        client.close()


def main() -> int:
    missing = [n for n, p in (("PostgreSQL", 5432), ("Redis", REDIS_PORT)) if not reachable(HOST, p)]
    if missing:
        print(f"e2e needs {' and '.join(missing)} on 127.0.0.1; not reachable")
        return 2
    with run_folder("e2e") as folder, fresh_database(POSTGRES_URL) as database_url, shared_redis_url() as redis_url:
        outcome = run_story(database_url=database_url, redis_url=redis_url, folder=folder)
        print(outcome.report())
        if not outcome.ok:
            for log in sorted(folder.glob("*.log")):
                print(f"--- {log.name} (tail)\n" + "\n".join(log.read_text(errors="replace").splitlines()[-15:]))
            print(f"FAILED: {sum(not s.ok for s in outcome.steps)} step(s)")
            return 1
    print("e2e: every step passed")
    return 0


def run() -> None:
    main()


if __name__ == "__main__":
    sys.exit(main())
