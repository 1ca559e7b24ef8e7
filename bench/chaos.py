"""Scripted faults against the real processes on loopback, with the results as a table.

The stack: a private ``redis-server`` and a throwaway PostgreSQL cluster (so the machine's shared ones are never
touched; when no cluster can be made, a fresh database on the shared server whose backends are terminated instead),
``gpuops service``, ``gpuops worker`` (live launches), ``gpuops bot``, the fake Slack Web API, moto plus the AWS JSON
fake. Faults: Redis stopped and restarted during traffic; Postgres restarted during traffic; the worker SIGKILLed
between claiming a task and creating the job (and once more after AWS created it, before the worker recorded it);
Cost Explorer throttling; Slack answering 429 and 500; 1,000 duplicate Slack deliveries.

For each: requests served, errors by kind, approvals lost (must be 0), duplicate launches (must be 0), time to
recover. Every loop is bounded in count and time; the run stops by itself. ``python -m bench.chaos``.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import sys
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from bench.harness import (
    ADMIN_TOKEN,
    BOT_TOKEN,
    HOST,
    POSTGRES_URL,
    TEAM_ID,
    AwsStandIns,
    PostgresCluster,
    Proc,
    Processes,
    RedisServer,
    SlackRequests,
    bot_argv,
    bot_env,
    free_port,
    fresh_database,
    migrate,
    percentile,
    psycopg_dsn,
    reachable,
    run_folder,
    service_argv,
    service_env,
    table,
    wait_until,
    worker_argv,
    write_policy_file,
)

DEFAULT = False  # starts its own Redis and Postgres and takes a couple of minutes: only ``make chaos`` runs it
REQUEST = "fine-tune 13B on 5B tokens by next Friday"  # needs one approval, then launches on SageMaker
LEAD = f"slack:{TEAM_ID}:U0LEAD1"
TRAFFIC_THREADS = 4
MAX_OPS_PER_THREAD = 3000
SETTLE_SECONDS = 45.0


@dataclass
class Row:
    fault: str
    served: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    approvals_lost: int = 0
    duplicate_launches: int = 0
    recovery: str = "-"
    notes: list[str] = field(default_factory=list)

    def cells(self) -> list[str]:
        errors = ", ".join(f"{k} {v}" for k, v in self.errors.most_common()) or "none"
        return [self.fault, str(self.served), errors, str(self.approvals_lost), str(self.duplicate_launches),
                self.recovery, "; ".join(self.notes)]


# -------------------------------------------------------------------------------------------------- the traffic


@dataclass
class Sample:
    at: float
    op: str
    kind: str  # ok, http_503, http_500, timeout, refused, ...
    seconds: float = 0.0


class Traffic:
    """Clients doing what the bot does: plans, new requests, and the lead approving each new request.

    Approvals the service acknowledged are remembered, to check afterwards that none was lost."""

    def __init__(self, service_url: str, *, tag: str, threads: int = TRAFFIC_THREADS, plans_only: bool = False,
                 teams: tuple[str, ...] = ("team-ml",)) -> None:
        self.url, self.tag, self.threads, self.plans_only, self.teams = service_url, tag, threads, plans_only, teams
        self.samples: list[Sample] = []
        self.created: list[str] = []
        self.approved: list[str] = []  # acknowledged with 2xx
        self.unapproved: list[str] = []  # created, approval not acknowledged (yet)
        self.spend: Counter[str] = Counter()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []

    def __enter__(self) -> Traffic:
        self._threads = [threading.Thread(target=self._run, args=(i,), daemon=True) for i in range(self.threads)]
        for thread in self._threads:
            thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(30)

    def _record(self, op: str, kind: str, at: float) -> None:
        with self._lock:
            self.samples.append(Sample(at, op, kind, time.perf_counter() - at))

    def _call(self, http: httpx.Client, op: str, method: str, path: str, **kwargs: Any) -> httpx.Response | None:
        at = time.perf_counter()
        try:
            answer = http.request(method, f"{self.url}{path}", **kwargs)
        except httpx.TimeoutException:
            self._record(op, "timeout", at)
            return None
        except httpx.ConnectError:
            self._record(op, "refused", at)
            return None
        except httpx.HTTPError as exc:
            self._record(op, type(exc).__name__, at)
            return None
        self._record(op, "ok" if answer.status_code < 400 else f"http_{answer.status_code}", at)
        return answer

    def _run(self, index: int) -> None:
        bot = {"Authorization": f"Bearer {BOT_TOKEN}"}
        requester = f"slack:{TEAM_ID}:U0CHAOS{index}{self.tag}"
        with httpx.Client(timeout=5) as http:
            for n in range(MAX_OPS_PER_THREAD):
                if self._stop.is_set():
                    return
                team = self.teams[n % len(self.teams)]
                answer = self._call(http, "plan", "POST", "/v1/plans", json={"text": REQUEST, "team": team},
                                    headers={"Authorization": f"Bearer {ADMIN_TOKEN}"})
                if answer is not None and answer.status_code == 200:
                    with self._lock:
                        self.spend[answer.json()["spend"]["status"]] += 1
                if self.plans_only:
                    continue
                answer = self._call(http, "request", "POST", "/v1/requests", json={"text": REQUEST, "team": team},
                                    headers={**bot, "X-Gpuops-Actor": requester,
                                             "Idempotency-Key": f"chaos-{uuid.uuid4().hex}"})
                if answer is None or answer.status_code not in (200, 201):
                    continue
                request_id = str(answer.json()["id"])
                with self._lock:
                    self.created.append(request_id)
                if self.approve(http, request_id):
                    continue
                with self._lock:
                    self.unapproved.append(request_id)

    def approve(self, http: httpx.Client, request_id: str) -> bool:
        answer = self._call(http, "approve", "POST", f"/v1/requests/{request_id}/approvals",
                            json={"decision": "approve"},
                            headers={"Authorization": f"Bearer {BOT_TOKEN}", "X-Gpuops-Actor": LEAD})
        if answer is None or answer.status_code != 200:
            return False
        with self._lock:
            self.approved.append(request_id)
        return True

    def retry_unapproved(self) -> None:
        """What the lead does when a click failed: click again (after the fault)."""
        with httpx.Client(timeout=10) as http:
            for request_id in list(self.unapproved):
                if self.approve(http, request_id):
                    self.unapproved.remove(request_id)

    def served(self) -> int:
        return sum(s.kind == "ok" for s in self.samples)

    def errors(self) -> Counter[str]:
        return Counter(f"{s.op}:{s.kind}" for s in self.samples if s.kind != "ok")

    def recovered_after(self, cleared: float) -> float | None:
        """Seconds from ``cleared`` to the first success after the last error (0 when no error followed it)."""
        ordered = sorted(self.samples, key=lambda s: s.at)
        last_error = max((s.at for s in ordered if s.kind != "ok"), default=None)
        if last_error is None:
            return 0.0
        after = [s.at for s in ordered if s.kind == "ok" and s.at > last_error]
        return None if not after else max(0.0, after[0] - cleared)


class Readiness:
    """``/readyz`` sampled every 50 ms on a thread: when it said what."""

    def __init__(self, service_url: str) -> None:
        self.url = f"{service_url}/readyz"
        self.samples: list[tuple[float, str]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> Readiness:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(10)

    def _run(self) -> None:
        with httpx.Client(timeout=2) as http:
            for _ in range(20_000):
                if self._stop.wait(0.05):
                    return
                try:
                    status = str(http.get(self.url).json().get("status"))
                except (httpx.HTTPError, ValueError):
                    status = "down"
                self.samples.append((time.perf_counter(), status))

    def first(self, status: str, after: float) -> float | None:
        return next((t for t, s in self.samples if t >= after and s == status), None)

    def seen(self) -> list[str]:
        return sorted({s for _, s in self.samples})


# ---------------------------------------------------------------------------------------------------- the stack


class Stack:
    """Everything the faults act on, started once; each fault restarts what it broke."""

    def __init__(self, procs: Processes, folder: Path, *, database_url: str, postgres: PostgresCluster | None,
                 redis: RedisServer, aws: AwsStandIns, slack: Any) -> None:
        self.procs, self.folder, self.database_url = procs, folder, database_url
        self.postgres, self.redis, self.aws, self.slack = postgres, redis, aws, slack
        self.env = service_env(database_url=database_url, redis_url=redis.url, aws=aws.env,
                               policy_file=write_policy_file(folder), GPUOPS_SPEND_TTL_SECONDS="2",
                               GPUOPS_REDIS_RETRY_SECONDS="2", GPUOPS_AWS_MAX_ATTEMPTS="3")
        self.service_port, self.bot_port = free_port(), free_port()
        self.service_url = f"http://{HOST}:{self.service_port}"
        self.bot_url = f"http://{HOST}:{self.bot_port}"
        self.signed = SlackRequests(response_url=slack.response_url("chaos"))
        self.workers: list[Proc] = []
        self.extra_bots: list[str] = []

    def start(self) -> Stack:
        migrate(self.procs, self.env)
        self.procs.spawn("service", service_argv(self.service_port), self.env,
                         health_url=f"{self.service_url}/healthz")
        self.start_worker(lease=30)
        self.procs.spawn("bot", bot_argv(self.bot_port), bot_env(service_url=self.service_url,
                                                                 slack_api_url=self.slack.api_url),
                         health_url=f"{self.bot_url}/healthz")
        return self

    def bot_urls(self, replicas: int) -> list[str]:
        """The bot's URL and, when asked for, those of more replicas (answering Slack only: no feed, no digest)."""
        while len(self.extra_bots) < replicas - 1:
            port = free_port()
            self.procs.spawn(f"bot-{len(self.extra_bots) + 2}", bot_argv(port),
                             bot_env(service_url=self.service_url, slack_api_url=self.slack.api_url, feed=False),
                             health_url=f"http://{HOST}:{port}/healthz")
            self.extra_bots.append(f"http://{HOST}:{port}")
        return [self.bot_url, *self.extra_bots][:replicas]

    def start_worker(self, *, lease: float) -> Proc:
        port = free_port()
        worker = self.procs.spawn(f"worker-{len(self.workers) + 1}", worker_argv(port, lease=lease, poll=0.2),
                                  self.env, health_url=f"http://{HOST}:{port}/healthz")
        self.workers.append(worker)
        return worker

    def worker_alive(self) -> bool:
        return any(w.alive for w in self.workers)

    def request(self, request_id: str) -> dict[str, Any] | None:
        with contextlib.suppress(httpx.HTTPError, ValueError):
            answer = httpx.get(f"{self.service_url}/v1/requests/{request_id}", timeout=5,
                               headers={"Authorization": f"Bearer {ADMIN_TOKEN}"})
            if answer.status_code == 200:
                result: dict[str, Any] = answer.json()
                return result
        return None

    def creates_by_name(self) -> Counter[str]:
        return Counter(str(body["TrainingJobName"]) for body in self.aws.fake.calls("CreateTrainingJob"))

    def settle(self, traffic: Traffic, row: Row) -> None:
        """After the fault: every acknowledged approval on record, every approved request launched once."""
        from service.aws.sagemaker import training_job_name

        if not self.worker_alive():  # what the orchestrator does with a container that exited
            codes = [w.popen.returncode for w in self.workers if w.popen is not None]
            row.notes.append(f"the worker process exited (status {codes[-1]}) during the fault; restarted")
            self.start_worker(lease=30)
        traffic.retry_unapproved()
        launched_states = {"launching", "running", "succeeded", "failed", "stopped"}

        def all_launched() -> bool:
            states = [(self.request(r) or {}).get("status") for r in traffic.approved]
            return all(s in launched_states - {"launching"} for s in states)

        if traffic.approved and not wait_until(all_launched, timeout=SETTLE_SECONDS, interval=0.5):
            waiting = [r for r in traffic.approved if (self.request(r) or {}).get("status") not in launched_states]
            row.notes.append(f"{len(waiting)} approved request(s) not launched {SETTLE_SECONDS:.0f} s after the fault")
        for request_id in traffic.approved:
            record = self.request(request_id)
            if record is None or (record["status"] == "pending_approval"
                                  and not any(a["approver"] == LEAD for a in record["approvals"])):
                row.approvals_lost += 1
        names = self.creates_by_name()
        mine = {training_job_name(request_id=r, revision=1) for r in traffic.created}
        row.duplicate_launches = sum(n - 1 for name, n in names.items() if name in mine and n > 1)
        row.served, row.errors = traffic.served(), traffic.errors()
        launched = sum(1 for name in names if name in mine)
        row.notes.append(f"{len(traffic.created)} requests, {len(traffic.approved)} approvals acknowledged, "
                         f"{launched} jobs created")


def _fmt(seconds: float | None) -> str:
    return "not recovered" if seconds is None else f"{seconds:.2f} s"


# --------------------------------------------------------------------------------------------------- the faults


def redis_restart(stack: Stack) -> Row:
    row = Row("Redis stopped 4 s, restarted")
    with Readiness(stack.service_url) as ready, Traffic(stack.service_url, tag="R") as traffic:
        time.sleep(2)
        stack.redis.kill()
        time.sleep(4)
        stack.redis.start()
        cleared = time.perf_counter()
        time.sleep(4)
    return _recovered(stack, row, traffic=traffic, ready=ready, cleared=cleared)


def _recovered(stack: Stack, row: Row, *, traffic: Traffic, ready: Readiness, cleared: float) -> Row:
    """Settle the traffic, then recovery = when both readiness said ok and requests succeeded again."""
    stack.settle(traffic, row)
    back = ready.first("ok", cleared)
    requests_back = traffic.recovered_after(cleared)
    row.recovery = _fmt(None if back is None or requests_back is None else max(back - cleared, requests_back))
    row.notes.append(f"readiness went through {', '.join(ready.seen())}")
    return row


def postgres_restart(stack: Stack) -> Row:
    simulated = stack.postgres is None
    row = Row("Postgres " + ("backends terminated 4 s" if simulated else "stopped (immediate) 4 s, restarted"))
    with Readiness(stack.service_url) as ready, Traffic(stack.service_url, tag="P") as traffic:
        time.sleep(2)
        if stack.postgres is not None:
            stack.postgres.kill()
            time.sleep(4)
            stack.postgres.start()
        else:
            _terminate_backends(stack.database_url, seconds=4)
        cleared = time.perf_counter()
        time.sleep(5)
    return _recovered(stack, row, traffic=traffic, ready=ready, cleared=cleared)


def _terminate_backends(database_url: str, *, seconds: float) -> None:
    """Without a cluster of our own: cut every connection to our database, repeatedly, for ``seconds``."""
    import psycopg
    from sqlalchemy.engine import make_url

    name = make_url(database_url).database
    with psycopg.connect(psycopg_dsn(POSTGRES_URL), autocommit=True) as conn:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s "
                         "AND pid <> pg_backend_pid()", (name,))
            time.sleep(0.05)


def worker_killed(stack: Stack, *, hold: str) -> Row:
    """SIGKILL the worker while SageMaker holds its call: ``describe`` (claimed, nothing created yet) or
    ``create`` (AWS created the job, the worker never heard back); a new worker takes the lapsed claim over."""
    sagemaker = stack.aws.sagemaker
    label = "between claim and create" if hold == "describe" else "after create, before recording"
    row = Row(f"worker SIGKILLed {label}")
    release = threading.Event()
    sagemaker.entered.clear()
    if hold == "describe":
        sagemaker.hold_describe = release
    else:
        sagemaker.hold_create = release
    traffic = Traffic(stack.service_url, tag=f"W{hold[0]}", threads=1)
    for worker in stack.workers:  # the restarted worker must be the only one
        worker.stop()
    replacement_lease = 2.0
    with httpx.Client(timeout=10) as http:
        stack.start_worker(lease=30)
        answer = traffic._call(http, "request", "POST", "/v1/requests", json={"text": REQUEST, "team": "team-ml"},
                               headers={"Authorization": f"Bearer {BOT_TOKEN}", "Idempotency-Key": uuid.uuid4().hex,
                                        "X-Gpuops-Actor": f"slack:{TEAM_ID}:U0KILL{hold}"})
        assert answer is not None and answer.status_code == 201, answer
        request_id = str(answer.json()["id"])
        traffic.created.append(request_id)
        assert traffic.approve(http, request_id)
    try:
        if not sagemaker.entered.wait(30):
            row.notes.append("the worker never reached SageMaker")
            return row
        victim = stack.workers[-1]
        victim.kill()
        killed = time.perf_counter()
    finally:
        sagemaker.hold_describe = sagemaker.hold_create = None
        release.set()
    stack.start_worker(lease=replacement_lease)
    from service.aws.sagemaker import training_job_name

    name = training_job_name(request_id=request_id, revision=1)
    running = wait_until(lambda: (stack.request(request_id) or {}).get("status") == "running", timeout=60,
                         interval=0.05)
    row.recovery = _fmt(time.perf_counter() - killed if running else None)
    stack.settle(traffic, row)
    row.notes.append(f"CreateTrainingJob calls for {name}: {stack.creates_by_name()[name]}; "
                     f"replacement worker's lease {replacement_lease:.0f} s")
    return row


def cost_explorer_throttled(stack: Stack) -> Row:
    """GetCostAndUsage and GetCostForecast answer ThrottlingException for 6 s; spend TTL is 2 s."""
    from tests.aws.fakeaws import AwsFault

    row = Row("Cost Explorer ThrottlingException 6 s")

    def throttled(_body: dict[str, Any]) -> dict[str, Any]:
        raise AwsFault("ThrottlingException", "Rate exceeded", status=400)

    fake = stack.aws.fake
    calls_before = len(fake.calls("GetCostAndUsage"))
    with Traffic(stack.service_url, tag="C", plans_only=True, teams=("team-ml", "team-nlp")) as traffic:
        time.sleep(3)
        before = Counter(traffic.spend)
        fake.on("GetCostAndUsage", throttled)
        fake.on("GetCostForecast", throttled)
        faulted = time.perf_counter()
        time.sleep(6)
        during = traffic.spend - before
        fake.handlers.pop("GetCostAndUsage", None)
        stack.aws.forecast(4_200.0)
        cleared = time.perf_counter()
        throttled_calls = len(fake.calls("GetCostAndUsage")) - calls_before
        time.sleep(2)
    ok_again = wait_until(lambda: _spend_ok(stack), timeout=90, interval=0.2)
    back = time.perf_counter() - cleared
    stack.settle(traffic, row)
    row.recovery = _fmt(back if ok_again else None) + " (spend ok again)"
    latencies = [s.seconds for s in traffic.samples if faulted <= s.at <= cleared]
    row.notes.append(f"spend status in plans during the fault: {dict(during)}; GetCostAndUsage calls "
                     f"{throttled_calls}; plan p99 during the fault {percentile(latencies, 99) * 1000:.0f} ms, "
                     f"max {max(latencies, default=0) * 1000:.0f} ms")
    return row


def _spend_ok(stack: Stack) -> bool:
    answer = httpx.get(f"{stack.service_url}/v1/spend", params={"team": "team-ml"}, timeout=10,
                       headers={"Authorization": f"Bearer {ADMIN_TOKEN}"})
    return bool(answer.status_code == 200 and answer.json()["status"] == "ok")


def slack_failing(stack: Stack, *, status: int, count: int = 5) -> Row:
    """The next ``count`` chat.postMessage calls answer ``status``; 20 commands are sent."""
    slack = stack.slack
    row = Row(f"Slack chat.postMessage answers {status} ×{count}")
    headers = {"Retry-After": "1"} if status == 429 else {}
    body = {"ok": False, "error": "ratelimited" if status == 429 else "internal_error"}
    for _ in range(count):
        slack.fail_next("chat.postMessage", status=status, body=body, headers=headers)
    posts_before = len(slack.of("chat.postMessage"))
    responses_before = len(slack.of("response"))
    sent_at = time.perf_counter()
    users = [f"U0SLACK{status}{i:02d}" for i in range(20)]
    acks: Counter[str] = Counter()
    with httpx.Client(timeout=10) as http:
        for user in users:
            try:
                answer = http.post(f"{stack.bot_url}/slack/events",
                                   content=(signed := stack.signed.command(f"{REQUEST} {user}", user=user))[0],
                                   headers=signed[1])
                acks["ok" if answer.status_code == 200 else f"http_{answer.status_code}"] += 1
            except httpx.HTTPError as exc:
                acks[type(exc).__name__] += 1

    def settled() -> bool:
        posted = len(slack.of("chat.postMessage")) - posts_before
        told = len(slack.of("response")) - responses_before
        return posted + told >= len(users) + count

    wait_until(settled, timeout=30, interval=0.1)
    done = time.perf_counter()
    calls = slack.of("chat.postMessage")[posts_before:]
    answered = [c for c in calls if c.answer.get("ok")]
    plans_by_user = Counter(u for c in answered for u in users if f"{REQUEST} {u}" in str(c.blocks))
    duplicates = sum(n - 1 for n in plans_by_user.values() if n > 1)
    told = [c for c in slack.of("response")[responses_before:] if c.body.get("response_type") == "ephemeral"]
    row.served = acks["ok"]
    row.errors = Counter({f"slack_{status}": len(calls) - len(answered)}) + Counter(
        {k: v for k, v in acks.items() if k != "ok"})
    posted_users = set(plans_by_user)
    row.duplicate_launches = duplicates
    row.recovery = f"{done - sent_at:.2f} s (all 20 settled)"
    row.notes.append(f"{len(posted_users)}/20 plans posted, {len(told)} people told to try again, "
                     f"{duplicates} duplicate posts; acks {dict(acks)}")
    return row


def duplicate_deliveries(stack: Stack, *, kind: str, copies: int = 1000, concurrency: int = 32,
                         replicas: int = 1) -> Row:
    """One event (``mention``: same event_id) or one slash command (``command``: same trigger_id) delivered
    ``copies`` times with X-Slack-Retry-Num, ``concurrency`` at a time, spread over ``replicas`` bot processes."""
    slack = stack.slack
    user = f"U0DUP{kind.upper()}{replicas}"
    urls = stack.bot_urls(replicas)
    where = "" if replicas == 1 else f", {replicas} bot replicas"
    row = Row(f"{copies} duplicate Slack deliveries ({'app_mention' if kind == 'mention' else '/gpu'}{where})")
    text = f"{REQUEST} {user}"
    event_id, trigger = f"Ev{uuid.uuid4().hex[:10]}", f"trigger.{uuid.uuid4().hex}"
    posts_before = len(slack.of("chat.postMessage"))
    kinds: Counter[str] = Counter()
    lock = threading.Lock()
    started = time.perf_counter()

    def deliver(n: int) -> None:
        retry = 1 + n % 3 if n else None  # the first delivery, then Slack's retries
        if kind == "mention":
            body, headers = stack.signed.mention(text, user=user, event_id=event_id, retry=retry)
        else:
            body, headers = stack.signed.command(text, user=user, trigger_id=trigger, retry=retry)
        try:
            answer = http.post(f"{urls[n % len(urls)]}/slack/events", content=body, headers=headers)
            result = "ok" if answer.status_code == 200 else f"http_{answer.status_code}"
        except httpx.HTTPError as exc:
            result = type(exc).__name__
        with lock:
            kinds[result] += 1

    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    with httpx.Client(timeout=10, limits=limits) as http, \
            concurrent.futures.ThreadPoolExecutor(max_workers=concurrency) as pool:
        list(pool.map(deliver, range(copies)))
    delivered = time.perf_counter() - started

    def mine() -> list[Any]:
        return [c for c in slack.of("chat.postMessage")[posts_before:] if text in str(c.blocks)]

    wait_until(lambda: bool(mine()), timeout=20, interval=0.1)
    time.sleep(3)  # let any late duplicate arrive before counting
    answer = httpx.get(f"{stack.service_url}/v1/requests", params={"requester": f"slack:{TEAM_ID}:{user}"},
                       headers={"Authorization": f"Bearer {ADMIN_TOKEN}"}, timeout=10)
    requests_made = len(answer.json()["items"]) if answer.status_code == 200 else -1
    row.served = kinds["ok"]
    row.errors = Counter({k: v for k, v in kinds.items() if k != "ok"})
    row.recovery = f"{delivered:.2f} s to deliver all"
    row.notes.append(f"{requests_made} request(s) in the service, {len(mine())} plan message(s) posted "
                     f"(must both be 1)")
    row.duplicate_launches = max(0, len(mine()) - 1)
    return row


# ------------------------------------------------------------------------------------------------------ the run


@contextlib.contextmanager
def _database(procs: Processes, notes: list[str]) -> Iterator[tuple[str, PostgresCluster | None]]:
    """A throwaway cluster when one can be made here, else a fresh database on the shared server."""
    cluster: PostgresCluster | None = None
    try:
        cluster = PostgresCluster(procs).init().start()
    except (RuntimeError, OSError, LookupError) as exc:
        notes.append(f"no throwaway Postgres cluster ({exc}); Postgres fault simulated by terminating the "
                     f"backends of a fresh database on the shared server")
        cluster = None
    if cluster is not None:
        import psycopg

        with psycopg.connect(f"host={HOST} port={cluster.port} user=postgres dbname=postgres",
                             autocommit=True) as conn:
            conn.execute('CREATE DATABASE "gpuops"')
        try:
            yield cluster.url.rsplit("/", 1)[0] + "/gpuops", cluster
        finally:
            cluster.remove()
        return
    if not reachable(HOST, 5432):
        raise RuntimeError("no Postgres: neither a throwaway cluster nor the shared server at 127.0.0.1:5432")
    with fresh_database(POSTGRES_URL) as url:
        yield url, None


FAULTS: list[tuple[str, Callable[[Stack], Row]]] = [
    ("redis", redis_restart),
    ("postgres", postgres_restart),
    ("worker-claim", lambda s: worker_killed(s, hold="describe")),
    ("worker-create", lambda s: worker_killed(s, hold="create")),
    ("costexplorer", cost_explorer_throttled),
    ("slack-429", lambda s: slack_failing(s, status=429)),
    ("slack-500", lambda s: slack_failing(s, status=500)),
    ("dup-mention", lambda s: duplicate_deliveries(s, kind="mention")),
    ("dup-command", lambda s: duplicate_deliveries(s, kind="command")),
    ("dup-mention-replicas", lambda s: duplicate_deliveries(s, kind="mention", replicas=2)),
]


def main(argv: list[str]) -> int:
    from tests.bot.fake_slack import FakeSlack

    chosen = [f for f in FAULTS if not argv or f[0] in argv]
    rows: list[Row] = []
    notes: list[str] = []
    started = time.perf_counter()
    with run_folder("chaos") as folder, Processes(folder) as procs, _database(procs, notes) as (url, cluster):
        aws = AwsStandIns.start()
        slack = FakeSlack().start()
        try:
            redis = RedisServer(procs).start()
            stack = Stack(procs, folder, database_url=url, postgres=cluster, redis=redis, aws=aws,
                          slack=slack).start()
            for name, fault in chosen:
                print(f"  fault: {name} …", flush=True)
                try:
                    rows.append(fault(stack))
                except Exception as exc:  # noqa: BLE001 - one broken fault must not hide the others' figures
                    rows.append(Row(name, notes=[f"harness error: {type(exc).__name__}: {exc}"[:200]]))
        finally:
            procs.close()  # everything stops before the database it uses goes away
            slack.stop()
            aws.close()
    headers = ("fault", "served", "errors by kind", "approvals lost", "duplicates (launches; Slack: posts)",
               "time to recover", "notes")
    print(table(headers, [r.cells() for r in rows]))
    for note in notes:
        print(f"note: {note}")
    bad = [r.fault for r in rows if r.approvals_lost or r.duplicate_launches]
    print(f"chaos finished in {time.perf_counter() - started:.0f} s; "
          + (f"FAILED (lost approvals or duplicates): {', '.join(bad)}" if bad else "no approval lost, no duplicate"))
    return 1 if bad else 0


def run() -> None:
    main([])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
