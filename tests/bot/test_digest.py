"""The daily digest: what it says, its chart, and exactly one post per channel per day across replicas."""

from __future__ import annotations

import threading
from datetime import UTC, datetime

from bot.app import build_web_client
from bot.client import ServiceClient
from bot.digest import anomalies, build_digest, due_day
from bot.scheduler import DigestScheduler
from tests.bot.factories import NOW, make_job, make_request
from tests.bot.fake_service import TOKEN, FakeService
from tests.bot.fake_slack import FakeSlack
from tests.bot.harness import BotHarness

RUNNING_JOB = make_job(name="gpuops-req-7-r1", status="InProgress", secondary_status="Training",
                       training_seconds=7200, billable_seconds=None, actual_cost_usd=None, spot_savings=None,
                       interruptions=0)
DONE_JOB = make_job(name="gpuops-req-8-r1", training_seconds=36_000, billable_seconds=25_200, actual_cost_usd=123.0,
                    interruptions=1, spot_savings=0.3)


def test_digest_says_what_a_reader_needs(bot: BotHarness, service: FakeService) -> None:
    service.requests["req_7"] = make_request(request_id="req_7", status="running", job=RUNNING_JOB)
    service.requests["req_8"] = make_request(request_id="req_8", status="succeeded", job=DONE_JOB)
    service.requests["req_9"] = make_request(request_id="req_9")
    digest = build_digest(bot.service, team="team-ml", now=NOW)
    texts = [b["text"]["text"] for b in digest.blocks if "text" in b]
    assert texts[0] == "GPU spend · team-ml · Mon Nov 30"
    assert texts[1] == "*Spend* team-ml: $38,420 month to date of $50,000 budget (77%) · month forecast $47,900"
    assert texts[2] == "*Yesterday*: $3,950 (+420% on the day before)"
    assert texts[3].startswith("*Pace*: $9,913 under pace (an even spread would be $48,333 by now)")
    assert texts[3].endswith("*Forecast*: $47,900 for the month, within budget by $2,100")
    assert texts[4].startswith("*Top drivers*\n• p4d.24xlarge: $21,300")
    assert texts[5] == ("*Running jobs* (1, $39 so far)\n"
                        "• `req_7` 4× g6e.12xlarge · team-ml · InProgress · $39 so far of ~$310")
    assert texts[6].startswith("*Waiting for approval* (1)\n• `req_9` 4× g6e.12xlarge ~$310, waiting for <@U0LEAD1>")
    assert texts[7] == "*Spot savings*: $59 on 1 finished job"
    assert texts[8].startswith("📈 *Anomalies*\n• Yesterday's $3,950 is 3.1× the 7-day average ($1,261).")
    assert digest.png.startswith(b"\x89PNG")


def test_anomaly_needs_a_real_spike() -> None:
    flat = [(i, 100.0) for i in range(14)]
    assert anomalies(flat) == []
    assert anomalies([*flat[:-1], (13, 140.0)]) == []


def test_due_at_the_channels_local_time() -> None:
    assert due_day(datetime(2026, 11, 30, 7, 59, tzinfo=UTC), at="09:00", tz_name="Europe/Berlin") is None
    assert due_day(datetime(2026, 11, 30, 8, 0, tzinfo=UTC), at="09:00", tz_name="Europe/Berlin") == "2026-11-30"
    assert due_day(datetime(2026, 12, 1, 2, 0, tzinfo=UTC), at="17:00", tz_name="America/Los_Angeles") == "2026-11-30"


def test_two_replicas_racing_post_one_digest(slack: FakeSlack, service: FakeService, bot: BotHarness) -> None:
    clients = [ServiceClient(base_url=service.url, token=TOKEN, timeout=5) for _ in range(2)]
    replicas = [DigestScheduler(service=c, client=build_web_client(bot.settings), clock=lambda: NOW) for c in clients]
    barrier = threading.Barrier(2)
    posted: list[list[tuple[str, str]]] = []

    def run(scheduler: DigestScheduler) -> None:
        barrier.wait()
        posted.append(scheduler.tick())
        posted.append(scheduler.tick())  # the next tick of the same day does nothing either

    threads = [threading.Thread(target=run, args=(r,)) for r in replicas]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    for client in clients:
        client.close()
    assert sorted(posted) == [[], [], [], [("C0DIGEST", "2026-11-30")]]
    digest_posts = [c for c in slack.of("chat.postMessage") if c.body["channel"] == "C0DIGEST"]
    assert len(digest_posts) == 1
    [url_call] = slack.of("files.getUploadURLExternal")
    [upload] = slack.of("upload")
    [complete] = slack.of("files.completeUploadExternal")
    assert url_call.body["filename"] == "spend-team-ml.png"
    assert upload.raw.startswith(b"\x89PNG") and int(url_call.body["length"]) == len(upload.raw)
    assert complete.body["channel_id"] == "C0DIGEST"
    assert service.done == [{"channel": "C0DIGEST", "date": "2026-11-30", "ok": True}]
