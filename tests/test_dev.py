"""``gpuops dev`` (what ``make run`` starts): with Slack credentials, one command brings up the service, the
launch worker and the bot, and a signed ``/gpu`` reaches a posted plan."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx

from bench.harness import GPUOPS, Processes, SlackRequests, base_env, free_port
from tests.bot.fake_slack import FakeSlack
from tests.bot.harness import SIGNING_SECRET

ROOT = Path(__file__).resolve().parent.parent


def test_dev_runs_service_worker_and_bot_from_one_command(tmp_path: Path) -> None:
    slack = FakeSlack().start()
    port, bot_port = free_port(), free_port()
    # The bot's port comes from GPUOPS_BOT_PORT, as `gpuops bot` reads it.
    env = base_env(DATABASE_URL=f"sqlite:///{tmp_path / 'gpuops.db'}", SLACK_BOT_TOKEN="xoxb-dev-test",
                   SLACK_SIGNING_SECRET=SIGNING_SECRET, SLACK_API_URL=slack.api_url, GPUOPS_LOG_LEVEL="INFO",
                   GPUOPS_BOT_PORT=str(bot_port))
    env.pop("GPUOPS_API_TOKENS", None)
    try:
        with Processes(tmp_path) as procs:
            # in a folder of its own: the connection file it writes never lands in the checkout, where other
            # commands (and other tests) would find it
            dev = procs.spawn("dev", [*GPUOPS, "dev", "--port", str(port)], env,
                              health_url=f"http://127.0.0.1:{bot_port}/healthz", cwd=tmp_path)
            log = dev.log_path.read_text(encoding="utf-8")
            token = re.search(r"generated an admin token for this run:\s+(\S+)", log)
            assert token is not None, log
            bot_token = re.search(r"a bot token, which acts for the person named in X-Gpuops-Actor:\s+(\S+)", log)
            assert bot_token is not None, log
            body, headers = SlackRequests(response_url=slack.response_url(), secret=SIGNING_SECRET).command(
                "fine-tune 7B by Friday", user="U0ASKER", channel="C0GPUOPSML")
            ack = httpx.post(f"http://127.0.0.1:{bot_port}/slack/events", content=body, headers=headers, timeout=5)
            assert ack.status_code == 200
            posted = slack.wait_for("chat.postMessage", timeout=20)
            summary = posted[0].blocks[0]["text"]["text"]
            assert " · SageMaker · ~$" in summary
            listed = httpx.get(f"http://127.0.0.1:{port}/v1/requests",
                               headers={"Authorization": f"Bearer {token.group(1)}"}, timeout=5).json()
            assert [item["requester"] for item in listed["items"]] == ["slack:T0GPUOPS:U0ASKER"]
            approved = httpx.post(f"http://127.0.0.1:{port}/v1/requests/{listed['items'][0]['id']}/approvals",
                                  headers={"Authorization": f"Bearer {bot_token.group(1)}",
                                           "X-Gpuops-Actor": "slack:T0GPUOPS:U0LEAD1"},
                                  json={"decision": "approve"}, timeout=5).json()
            assert [a["approver"] for a in approved["approvals"]] == ["slack:T0GPUOPS:U0LEAD1"]
            # The bot starts once the service answers: reading the policy and the feed at start does not fail.
            log = dev.log_path.read_text(encoding="utf-8")
            assert "Traceback" not in log and "step failed" not in log, log
    finally:
        slack.stop()


def test_make_run_passes_its_port_to_the_service() -> None:
    dry = subprocess.run(["make", "-n", "run", "PORT=8010"], cwd=ROOT, capture_output=True, text=True, check=True)
    assert "gpuops dev --port 8010" in dry.stdout


def test_gpuops_service_says_an_unmigrated_database_needs_upgrading(tmp_path: Path) -> None:
    port = free_port()
    env = base_env(DATABASE_URL=f"sqlite:///{tmp_path / 'fresh.db'}")
    with Processes(tmp_path) as procs:
        service = procs.spawn("service", [*GPUOPS, "service", "--port", str(port)], env,
                              health_url=f"http://127.0.0.1:{port}/healthz")
        ready = httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=5)
        assert ready.status_code == 503
        assert ready.json()["database"] == "not migrated"
        assert "run `gpuops db upgrade`" in ready.json()["detail"]
        assert "run `gpuops db upgrade`" in service.log_path.read_text(encoding="utf-8")


def test_make_run_serves_on_its_port_until_stopped(tmp_path: Path) -> None:
    """`make run PORT=…` end to end: the real Makefile recipe (the installed environment stands for the one it
    would build), ready on that port, the connection file for other commands written and removed at stop."""
    venv = Path(sys.executable).parent.parent
    port = free_port()
    argv = ["make", "-s", "-C", str(tmp_path), "-f", str(ROOT / "Makefile"), "-o", str(venv / ".installed-stamp"),
            "run", f"PORT={port}", f"VENV={venv}"]
    env = base_env(DATABASE_URL=f"sqlite:///{tmp_path / 'gpuops.db'}")
    env.pop("GPUOPS_API_TOKENS", None)
    with Processes(tmp_path) as procs:
        run = procs.spawn("make-run", argv, env, health_url=f"http://127.0.0.1:{port}/readyz")
        ready = httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=5).json()
        assert ready["status"] == "ok" and ready["database"] == "ok"
        dev_file = tmp_path / ".gpuops-dev.json"
        assert json.loads(dev_file.read_text())["service_url"] == f"http://127.0.0.1:{port}"
        run.signal_group(signal.SIGINT)  # Ctrl-C in the terminal of `make run`
        deadline = time.monotonic() + 20
        while dev_file.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not dev_file.exists(), run.log_tail()
