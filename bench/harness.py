"""What ``bench.e2e``, ``bench.chaos`` and ``bench.load`` share: processes started as ``gpuops`` subcommands in their
own process groups and always stopped, free loopback ports, health waits, a private Redis or Postgres to break,
the AWS stand-ins (moto plus the test suite's JSON fake), signed Slack requests and percentiles.

Everything listens on and talks to 127.0.0.1. Every wait is bounded in time.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import logging
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any
from urllib.parse import urlencode

import httpx

from tests.bot.harness import sign

ROOT = Path(__file__).resolve().parents[1]
HOST = "127.0.0.1"
GPUOPS = [sys.executable, "-c", "from gpuops.cli import main; main()"]
POSTGRES_URL = os.environ.get("GPUOPS_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
REDIS_HOST, REDIS_PORT = "127.0.0.1", 6379
TEAM_ID = "T0GPUOPS"
# Tokens long and random-looking enough for the service's placeholder check, meaningless anywhere else.
BOT_TOKEN = "bench-bot-" + "7f3c9a1e5b2d4c6e"
ADMIN_TOKEN = "bench-admin-" + "0d8e2f4a6c1b3e5d"
SIGNING_SECRET = "bench-signing-" + "4b1d9e7c2a5f3e8d"
_SECRET_ENV = ("AWS_PROFILE", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN",
               "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI", "AWS_CONTAINER_CREDENTIALS_FULL_URI",
               "AWS_WEB_IDENTITY_TOKEN_FILE", "AWS_ROLE_ARN", "SLACK_BOT_TOKEN", "SLACK_SIGNING_SECRET",
               "SLACK_APP_TOKEN", "DATABASE_URL", "REDIS_URL", "GPUOPS_API_TOKENS", "GPUOPS_POLICY")


# Ports for servers started later come from below Linux's ephemeral range (32768-60999), where the kernel puts the
# sockets of outgoing connections and of servers bound to port 0: a port found free here cannot be taken by one of
# those between the check and the server's bind. Each process searches a stride of its own (a pytest-xdist worker by
# its number, anything else by its pid), so two never hand out the same port.
PORTS_FROM, PORTS_TO, PORTS_EACH = 20000, 32000, 200
_ports_handed = itertools.count()


def free_port() -> int:
    """A loopback port nothing listens on, which no other process of the suite or bench is handed."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    strides = (PORTS_TO - PORTS_FROM) // PORTS_EACH
    stride = int(worker[2:]) % strides if worker.startswith("gw") else strides // 2 + os.getpid() % (strides // 2)
    first = PORTS_FROM + stride * PORTS_EACH
    for _ in range(PORTS_EACH):
        port = first + next(_ports_handed) % PORTS_EACH
        with socket.socket() as sock:
            try:
                sock.bind((HOST, port))
            except OSError:
                continue  # in use, or closing: the next
        return port
    raise RuntimeError(f"no free loopback port among {first}-{first + PORTS_EACH - 1}")


def reachable(host: str, port: int, timeout: float = 1.0) -> bool:
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (nearest rank); NaN for no values."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(1, min(len(ordered), int(-(-q * len(ordered) // 100))))
    return ordered[rank - 1]


def wait_until(check: Callable[[], bool], *, timeout: float, interval: float = 0.02) -> bool:
    """Poll ``check`` until it holds or ``timeout`` seconds pass; whether it held."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            if check():
                return True
        except Exception:  # noqa: BLE001 - any probe failure means "not yet"; the deadline bounds the wait
            pass
        if time.monotonic() >= deadline:
            return False
        time.sleep(interval)


def table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A plain text table with left-aligned columns."""
    cells = [[str(h) for h in headers]] + [[str(c) for c in row] for row in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in cells]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def base_env(**extra: str) -> dict[str, str]:
    """The environment of a child: this one without secrets or real endpoints, AWS pointed nowhere real."""
    env = {k: v for k, v in os.environ.items() if k not in _SECRET_ENV and not k.startswith("AWS_ENDPOINT_URL")}
    env.update({
        "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1", "GPUOPS_LOG_LEVEL": "WARNING",
        "AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing", "AWS_DEFAULT_REGION": "us-east-1",
        "AWS_CONFIG_FILE": "/dev/null", "AWS_SHARED_CREDENTIALS_FILE": "/dev/null",
        "AWS_EC2_METADATA_DISABLED": "true", "AWS_ENDPOINT_URL": "http://127.0.0.1:9",
    })
    env.update(extra)
    return env


# --------------------------------------------------------------------------------------------------- processes


@dataclass
class Proc:
    """One child process in its own process group, logging to a file."""

    name: str
    argv: list[str]
    env: dict[str, str]
    log_path: Path
    health_url: str | None = None
    cwd: Path = ROOT  # where it runs: a folder of its own for a command that writes files beside it
    popen: subprocess.Popen[bytes] | None = None
    spawned_at: float = 0.0
    cold_start: float | None = None  # seconds from spawn to the first healthy answer
    _log: IO[bytes] | None = None

    def start(self) -> Proc:
        self._log = open(self.log_path, "ab")  # closed in stop()
        self.spawned_at = time.perf_counter()
        self.popen = subprocess.Popen(self.argv, env=self.env, cwd=self.cwd, stdout=self._log, stderr=subprocess.STDOUT,
                                      stdin=subprocess.DEVNULL, start_new_session=True)
        return self

    @property
    def pid(self) -> int:
        assert self.popen is not None
        return self.popen.pid

    @property
    def alive(self) -> bool:
        return self.popen is not None and self.popen.poll() is None

    def wait_healthy(self, timeout: float = 60.0) -> float:
        """Seconds from spawn to a 200 from ``health_url``; raises with the log's tail when it never comes."""
        assert self.health_url is not None
        deadline = time.monotonic() + timeout
        with httpx.Client(timeout=1.0) as http:
            while time.monotonic() < deadline:
                if not self.alive:
                    raise RuntimeError(f"{self.name} exited during start-up:\n{self.log_tail()}")
                with contextlib.suppress(httpx.HTTPError):
                    if http.get(self.health_url).status_code == 200:
                        self.cold_start = time.perf_counter() - self.spawned_at
                        return self.cold_start
                time.sleep(0.02)
        raise RuntimeError(f"{self.name} was not healthy within {timeout:.0f} s:\n{self.log_tail()}")

    def wait(self, timeout: float) -> int:
        assert self.popen is not None
        return self.popen.wait(timeout)

    def signal_group(self, signum: int) -> None:
        if self.popen is None or self.popen.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.popen.pid, signum)

    def kill(self) -> None:
        """SIGKILL the whole group, no goodbyes (a crash)."""
        self.signal_group(signal.SIGKILL)
        if self.popen is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.popen.wait(10)

    def stop(self, timeout: float = 10.0) -> None:
        """SIGTERM the group, SIGKILL what is left after ``timeout``."""
        if self.popen is not None and self.popen.poll() is None:
            self.signal_group(signal.SIGTERM)
            try:
                self.popen.wait(timeout)
            except subprocess.TimeoutExpired:
                self.kill()
        if self.popen is not None:  # children left behind by a dead parent (uvicorn workers) go with the group
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.popen.pid, signal.SIGKILL)
        if self._log is not None:
            self._log.close()
            self._log = None

    def pids(self) -> list[int]:
        """This process and its descendants (uvicorn's workers are children of its supervisor)."""
        if not self.alive:
            return []
        found, frontier = [self.pid], [self.pid]
        while frontier:
            parent = frontier.pop()
            with contextlib.suppress(OSError):
                for task in os.listdir(f"/proc/{parent}/task"):
                    children = Path(f"/proc/{parent}/task/{task}/children").read_text().split()
                    found += [int(c) for c in children]
                    frontier += [int(c) for c in children]
        return found

    def rss_mb(self) -> list[float]:
        """Resident memory of this process and each descendant, in MiB."""
        return [rss_mb(pid) for pid in self.pids()]

    def log_tail(self, lines: int = 30) -> str:
        with contextlib.suppress(OSError):
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        return ""


def rss_mb(pid: int) -> float:
    with contextlib.suppress(OSError), open(f"/proc/{pid}/status", encoding="ascii") as handle:
        for line in handle:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


class Processes:
    """Every child of a run; ``close`` (or leaving the ``with`` block) stops them all, newest first."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.started: list[Proc] = []

    def __enter__(self) -> Processes:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def spawn(self, name: str, argv: list[str], env: Mapping[str, str], *, health_url: str | None = None,
              wait: bool = True, timeout: float = 60.0, cwd: Path = ROOT) -> Proc:
        proc = Proc(name=name, argv=argv, env=dict(env), log_path=self.folder / f"{name}.log", health_url=health_url,
                    cwd=cwd)
        self.started.append(proc)
        proc.start()
        if wait and health_url is not None:
            proc.wait_healthy(timeout)
        return proc

    def run(self, name: str, argv: list[str], env: Mapping[str, str], *, timeout: float = 120.0) -> str:
        """Run a command to completion (bounded); its output; raises when it fails."""
        done = subprocess.run(argv, env=dict(env), cwd=ROOT, capture_output=True, text=True, timeout=timeout,
                              check=False, stdin=subprocess.DEVNULL)
        (self.folder / f"{name}.log").write_text(done.stdout + done.stderr)
        if done.returncode != 0:
            raise RuntimeError(f"{name} exited {done.returncode}:\n{done.stdout}{done.stderr}")
        return done.stdout

    def close(self) -> None:
        for proc in reversed(self.started):
            proc.stop()


# ------------------------------------------------------------------------------------------------ gpuops commands


def service_argv(port: int, workers: int = 1) -> list[str]:
    return [*GPUOPS, "service", "--host", HOST, "--port", str(port), "--workers", str(workers)]


def worker_argv(port: int, *, poll: float = 0.2, lease: float | None = None, once: bool = False) -> list[str]:
    argv = [*GPUOPS, "worker", "--host", HOST, "--port", str(port), "--poll-seconds", str(poll)]
    if lease is not None:
        argv += ["--lease-seconds", str(lease)]
    return argv + (["--once"] if once else [])


def bot_argv(port: int) -> list[str]:
    return [*GPUOPS, "bot", "--host", HOST, "--port", str(port)]


def service_env(*, database_url: str, redis_url: str | None, policy_file: str, aws: Mapping[str, str],
                spend: str = "costexplorer", launch: str = "live", **extra: str) -> dict[str, str]:
    env = base_env(DATABASE_URL=database_url, GPUOPS_API_TOKENS=f"bot:{BOT_TOKEN},admin:{ADMIN_TOKEN}",
                   GPUOPS_POLICY=policy_file, GPUOPS_SPEND=spend, GPUOPS_LAUNCH=launch, **aws, **extra)
    if redis_url:
        env["REDIS_URL"] = redis_url
    return env


def bot_env(*, service_url: str, slack_api_url: str, feed: bool = True, digest: bool = False,
            **extra: str) -> dict[str, str]:
    return base_env(SLACK_BOT_TOKEN="xoxb-bench-0000", SLACK_SIGNING_SECRET=SIGNING_SECRET,
                    SLACK_API_URL=slack_api_url, GPUOPS_SERVICE_URL=service_url, GPUOPS_SERVICE_TOKEN=BOT_TOKEN,
                    GPUOPS_BOT_FEED="true" if feed else "false", GPUOPS_BOT_DIGEST="true" if digest else "false",
                    GPUOPS_BOT_FEED_POLL_SECONDS="0.2", GPUOPS_BOT_SERVICE_TIMEOUT="5", **extra)


def write_policy_file(folder: Path, *, digest_channel: str | None = None, rate_limit: int = 1_000_000) -> str:
    """The embedded policy with team-ml's SageMaker launch profile (the AWS tests' one), an optional digest
    subscription, and a per-requester rate limit out of the way of the load."""
    from policy.config import PolicyConfig
    from tests.aws.launchkit import launch_policy, write_policy

    document = launch_policy().model_dump(mode="json")
    document["rate_limit_per_minute"] = rate_limit
    if digest_channel is not None:
        document["teams"]["team-ml"]["digest"] = {"channel": digest_channel, "time": "00:00", "timezone": "UTC"}
    return write_policy(PolicyConfig.model_validate(document), str(folder / "policy.yaml"))


def migrate(procs: Processes, env: Mapping[str, str]) -> None:
    procs.run("db-upgrade", [*GPUOPS, "db", "upgrade"], env, timeout=120)


# ------------------------------------------------------------------------------------------ Postgres and Redis


@contextlib.contextmanager
def fresh_database(base_url: str = POSTGRES_URL) -> Iterator[str]:
    """A new, empty database on the server of ``base_url``, dropped afterwards; yields its URL."""
    import psycopg
    from sqlalchemy.engine import make_url

    base = make_url(base_url)
    name = f"gpuops_bench_{uuid.uuid4().hex[:10]}"
    admin = f"host={base.host} port={base.port or 5432} user={base.username} dbname={base.database}"
    if base.password:
        admin += f" password={base.password}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield base.set(database=name).render_as_string(hide_password=False)
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def psycopg_dsn(url: str) -> str:
    """A libpq connection string for an SQLAlchemy URL (for direct checks of what the service stored)."""
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    dsn = f"host={parsed.host} port={parsed.port or 5432} user={parsed.username} dbname={parsed.database}"
    return dsn + (f" password={parsed.password}" if parsed.password else "")


class RedisServer:
    """A private ``redis-server`` on a free loopback port (never the machine's shared one), to stop and restart."""

    def __init__(self, procs: Processes, *, name: str = "redis") -> None:
        self.procs = procs
        self.name = name
        self.port = free_port()
        self.proc: Proc | None = None
        self.starts = 0

    @property
    def url(self) -> str:
        return f"redis://{HOST}:{self.port}/0"

    def start(self) -> RedisServer:
        binary = shutil.which("redis-server")
        if binary is None:
            raise RuntimeError("redis-server is not installed")
        self.starts += 1
        argv = [binary, "--bind", HOST, "--port", str(self.port), "--save", "", "--appendonly", "no",
                "--daemonize", "no"]
        self.proc = self.procs.spawn(f"{self.name}-{self.starts}", argv, base_env(), wait=False)
        if not wait_until(lambda: reachable(HOST, self.port, 0.2), timeout=10):
            raise RuntimeError(f"redis-server did not listen on {self.port}")
        return self

    def kill(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.stop()


class PostgresCluster:
    """A throwaway PostgreSQL cluster (``initdb`` in a temp dir) on a free port, run as the ``postgres`` user when
    this process is root (the server refuses root). Stopped and restarted at will; removed at the end."""

    def __init__(self, procs: Processes) -> None:
        self.procs = procs
        self.port = free_port()
        self.bin = _postgres_bin()
        self.data = Path(tempfile.mkdtemp(prefix="gpuops-pg-"))
        self.proc: Proc | None = None
        self.starts = 0
        self._as: list[str] = []
        if os.geteuid() == 0:
            self._as = ["runuser", "-u", "postgres", "--"]
            shutil.chown(self.data, user="postgres", group="postgres")

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://postgres@{HOST}:{self.port}/postgres"

    def init(self) -> PostgresCluster:
        done = subprocess.run([*self._as, str(self.bin / "initdb"), "-D", str(self.data / "db"), "-U", "postgres",
                               "--auth=trust", "--no-sync", "-E", "UTF8"], capture_output=True, text=True,
                              timeout=120, check=False, cwd="/tmp", stdin=subprocess.DEVNULL)
        if done.returncode != 0:
            raise RuntimeError(f"initdb failed: {done.stderr.strip()[-500:]}")
        return self

    def start(self) -> PostgresCluster:
        self.starts += 1
        argv = [*self._as, str(self.bin / "postgres"), "-D", str(self.data / "db"), "-p", str(self.port),
                "-c", f"listen_addresses={HOST}", "-c", f"unix_socket_directories={self.data}",
                # fsync off: a killed server's writes are still in the OS cache, so nothing committed is lost
                # (synchronous_commit stays on: an acknowledged commit must survive the kill).
                "-c", "fsync=off", "-c", "full_page_writes=off", "-c", "max_connections=200"]
        self.proc = self.procs.spawn(f"postgres-{self.starts}", argv, base_env(), wait=False)
        if not wait_until(self._accepts, timeout=30, interval=0.05):
            raise RuntimeError(f"postgres did not start:\n{self.proc.log_tail()}")
        return self

    def _accepts(self) -> bool:
        import psycopg

        with psycopg.connect(f"host={HOST} port={self.port} user=postgres dbname=postgres", connect_timeout=1):
            return True

    def kill(self) -> None:
        """An immediate stop (SIGQUIT: the server exits without a checkpoint and recovers on the next start)."""
        if self.proc is not None:
            self.proc.signal_group(signal.SIGQUIT)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(15)
            self.proc.stop()

    def remove(self) -> None:
        self.kill()
        shutil.rmtree(self.data, ignore_errors=True)


def _postgres_bin() -> Path:
    for candidate in sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True):
        if (candidate / "initdb").exists() and (candidate / "postgres").exists():
            return candidate
    found = shutil.which("initdb")
    if found is None:
        raise RuntimeError("no initdb/postgres binaries found")
    return Path(os.path.realpath(found)).parent


# ------------------------------------------------------------------------------------------------ AWS stand-ins


@dataclass
class AwsStandIns:
    """moto in server mode plus the test suite's JSON fake in front of it: SageMaker training jobs with billable
    time and a real duplicate-name check (the fake), Cost Explorer usage (moto, seeded) and its forecast (the fake).
    Faults are injected by replacing a handler on ``fake``."""

    moto_url: str
    fake: Any  # tests.aws.fakeaws.FakeAws
    sagemaker: Any  # tests.aws.launchkit.FakeSageMaker
    _closers: list[Callable[[], None]] = field(default_factory=list)

    @classmethod
    def start(cls) -> AwsStandIns:
        from moto.server import ThreadedMotoServer

        from tests.aws.fakeaws import start_fake_aws
        from tests.aws.launchkit import FakeSageMaker

        logging.getLogger("werkzeug").setLevel(logging.ERROR)  # moto's request log would drown the tables
        moto = ThreadedMotoServer(ip_address=HOST, port=0, verbose=False)
        moto.start()
        host, port = moto.get_host_and_port()
        fake, server = start_fake_aws()
        # A SIGKILLed worker hangs up mid-answer; that is the fault, not a failure of the fake.
        setattr(server, "handle_error", _quiet_hang_ups(server.handle_error))  # noqa: B010
        fake.fallback_url = f"http://{host}:{port}"
        stand_ins = cls(moto_url=f"http://{host}:{port}", fake=fake, sagemaker=FakeSageMaker(fake).install())
        stand_ins._closers += [moto.stop, server.shutdown, server.server_close]
        stand_ins.forecast(4_200.0)
        return stand_ins

    def close(self) -> None:
        for close in self._closers:
            with contextlib.suppress(Exception):
                close()

    @property
    def env(self) -> dict[str, str]:
        """botocore's endpoint variables for every service gpuops calls."""
        return {"AWS_ENDPOINT_URL_SAGEMAKER": self.fake.url, "AWS_ENDPOINT_URL_COST_EXPLORER": self.fake.url,
                "AWS_ENDPOINT_URL_PRICING": self.moto_url, "AWS_ENDPOINT_URL_EC2": self.moto_url}

    def forecast(self, usd: float) -> None:
        self.fake.on("GetCostForecast", lambda _body: {"Total": {"Amount": str(usd), "Unit": "USD"},
                                                       "ForecastResultsByTime": []})

    def seed_daily_spend(self, days: int = 14, usd_per_day: float = 900.0) -> None:
        """Queue Cost Explorer answers in moto: a daily series by service, then month to date by instance type."""
        from datetime import UTC, date, datetime, timedelta

        from tests.aws.conftest import seed_cost_and_usage

        today = datetime.now(UTC).date()

        def day(d: date, usd: float) -> dict[str, Any]:
            return {"TimePeriod": {"Start": d.isoformat(), "End": (d + timedelta(days=1)).isoformat()}, "Total": {},
                    "Groups": [{"Keys": ["Amazon SageMaker"], "Metrics": {"UnblendedCost": {"Amount": str(usd),
                                                                                             "Unit": "USD"}}}],
                    "Estimated": False}

        series = {"ResultsByTime": [day(today - timedelta(days=i), usd_per_day * (1 + (i % 3) / 10))
                                    for i in range(days, 0, -1)], "DimensionValueAttributes": []}
        by_type = {"ResultsByTime": [{"TimePeriod": {"Start": today.replace(day=1).isoformat(),
                                                     "End": today.isoformat()}, "Total": {},
                                      "Groups": [{"Keys": ["ml.p4d.24xlarge"], "Metrics": {"UnblendedCost": {
                                          "Amount": "8000", "Unit": "USD"}}}], "Estimated": True}],
                   "DimensionValueAttributes": []}
        seed_cost_and_usage(self.moto_url, [series, by_type])


def _quiet_hang_ups(handle_error: Callable[[Any, Any], None]) -> Callable[[Any, Any], None]:
    def handle(request: Any, client_address: Any) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError):
            handle_error(request, client_address)

    return handle


# ------------------------------------------------------------------------------------------ signed Slack requests


class SlackRequests:
    """Requests as Slack sends them to ``/slack/events``, signed the way ``SignatureVerifier`` checks."""

    def __init__(self, *, response_url: str, secret: str = SIGNING_SECRET) -> None:
        self.response_url = response_url
        self.secret = secret

    def headers(self, body: str, content_type: str, *, retry: int | None = None) -> dict[str, str]:
        headers = {"Content-Type": content_type, **sign(body, secret=self.secret)}
        if retry:
            headers |= {"X-Slack-Retry-Num": str(retry), "X-Slack-Retry-Reason": "http_timeout"}
        return headers

    def command(self, text: str, *, user: str, channel: str = "C0PLANS", trigger_id: str | None = None,
                retry: int | None = None) -> tuple[str, dict[str, str]]:
        body = urlencode({
            "token": "unused", "team_id": TEAM_ID, "team_domain": "gpuops", "channel_id": channel,
            "channel_name": "plans", "user_id": user, "user_name": user.lower(), "command": "/gpu", "text": text,
            "api_app_id": "A0GPUOPS", "response_url": self.response_url,
            "trigger_id": trigger_id or f"trigger.{uuid.uuid4().hex}",
        })
        return body, self.headers(body, "application/x-www-form-urlencoded", retry=retry)

    def action(self, action_id: str, value: str, *, user: str, ts: str,
               channel: str = "C0PLANS") -> tuple[str, dict[str, str]]:
        payload = {
            "type": "block_actions", "team": {"id": TEAM_ID, "domain": "gpuops"},
            "user": {"id": user, "team_id": TEAM_ID, "username": user.lower()}, "api_app_id": "A0GPUOPS",
            "container": {"type": "message", "message_ts": ts, "channel_id": channel, "is_ephemeral": False},
            "channel": {"id": channel, "name": "plans"}, "message": {"ts": ts, "type": "message", "text": "plan"},
            "trigger_id": f"trigger.{uuid.uuid4().hex}", "response_url": self.response_url,
            "actions": [{"type": "button", "action_id": action_id, "block_id": f"req:{value}", "value": value,
                         "action_ts": f"{time.time():.6f}"}],
        }
        body = urlencode({"payload": json.dumps(payload)})
        return body, self.headers(body, "application/x-www-form-urlencoded")

    def mention(self, text: str, *, user: str, event_id: str, channel: str = "C0PLANS",
                retry: int | None = None) -> tuple[str, dict[str, str]]:
        event = {"type": "app_mention", "user": user, "text": f"<@UBOT> {text}", "channel": channel,
                 "ts": f"{time.time():.6f}", "team": TEAM_ID}
        body = json.dumps({
            "token": "unused", "team_id": TEAM_ID, "api_app_id": "A0GPUOPS", "event": event, "type": "event_callback",
            "event_id": event_id, "event_time": int(time.time()),
            "authorizations": [{"team_id": TEAM_ID, "user_id": "UBOT", "is_bot": True}],
        })
        return body, self.headers(body, "application/json", retry=retry)


def button_value(blocks: list[dict[str, Any]], action_id: str) -> str:
    """The value of the button ``action_id`` in a posted message's blocks."""
    for block in blocks:
        for element in block.get("elements", []) if block.get("type") == "actions" else []:
            if element.get("action_id") == action_id:
                return str(element["value"])
    raise LookupError(f"no {action_id} button in the message")


@contextlib.contextmanager
def run_folder(prefix: str) -> Iterator[Path]:
    """A temp folder for logs and files; kept (and named) when the run fails or ``GPUOPS_BENCH_KEEP_LOGS`` is set,
    removed when it succeeds."""
    folder = Path(tempfile.mkdtemp(prefix=f"gpuops-{prefix}-"))
    try:
        yield folder
    except BaseException:
        print(f"logs kept in {folder}", file=sys.stderr)
        raise
    if os.environ.get("GPUOPS_BENCH_KEEP_LOGS"):
        print(f"logs kept in {folder}")
        return
    shutil.rmtree(folder, ignore_errors=True)
