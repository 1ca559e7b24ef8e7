"""The daily digest: what it says, its chart, and exactly one post per channel per day across replicas."""

from __future__ import annotations

import json
import re
import threading
from datetime import UTC, date, datetime, timedelta

from bot.app import build_web_client
from bot.chart import burn_up
from bot.client import ServiceClient
from bot.digest import CONNECT_A_SOURCE, DigestData, anomalies, build_digest, deliver_once, digest_blocks, due_day
from bot.limits import MAX_MESSAGE_BLOCKS
from bot.scheduler import DigestScheduler
from policy.spend import DailySpend, SpendSnapshot
from tests.bot.factories import NOW, make_job, make_request, make_spend
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
    service.requests["req_10"] = make_request(request_id="req_10", status="approved")
    service.requests["req_11"] = make_request(request_id="req_11", status="succeeded", job=DONE_JOB,
                                              updated_at=NOW - timedelta(days=2))  # finished before yesterday
    digest = build_digest(bot.service, team="team-ml", now=NOW, tz_name="America/Los_Angeles")
    texts = [b["text"]["text"] for b in digest.blocks]
    assert texts[0] == "*AWS spend · team-ml · Mon Nov 30*"
    assert texts[1] == ("*Month to date*: $38,420 of $50,000 budget (77%)\n"
                        "training compute $37,220 · storage $1,200 · other $0.00\n"
                        "_compute includes $37,220 the spend source did not name by service_")
    assert texts[2] == "*Yesterday* (Sun Nov 29): $3,950 (+420% on the day before)"
    assert texts[3] == ("*Forecast*: $47,900 for the month, 🟢 within budget by $2,100; $9,913 behind an even pace "
                        "($48,333 by the end of Nov 29)")
    assert texts[4] == "*Top instance types this month*\n• p4d.24xlarge: $21,300\n• g6e.12xlarge: $9,800"
    assert texts[5] == "*Approved, launching* (1, ~$310 estimated)\n• `req_10` 4× g6e.12xlarge · launching soon · ~$310"
    assert texts[6] == ("*Running* (1, $39 so far of ~$310 estimated)\n"
                        "• `req_7` 4× g6e.12xlarge · InProgress · $39 so far of ~$310")
    assert texts[7] == ("*Finished in the last 24 h* (1)\n"
                        "• `req_8` 4× g6e.12xlarge · succeeded · $123 against ~$310 (-60%)")
    assert texts[8].startswith("*Waiting for approval* (1)\n• `req_9` 4× g6e.12xlarge ~$310, waiting for <@U0LEAD1>")
    assert texts[9] == "*Spot savings*: $59 on 1 finished job"
    assert texts[10].startswith("📈 *Anomalies*\n• Yesterday's $3,950 is 3.1× the 7-day average ($1,261).")
    assert texts[11].startswith("_Spend ok, as of 2026-11-30 05:00 PST")
    assert digest.png is not None and digest.png.startswith(b"\x89PNG")


def _data(spend: SpendSnapshot, *, tz_name: str = "UTC", running: int = 0) -> DigestData:
    jobs = [make_request(request_id=f"req_{i}", status="running", job=RUNNING_JOB) for i in range(running)]
    return DigestData(team="team-ml", spend=spend, running=jobs, pending=jobs, finished=jobs, approved=jobs,
                      tz_name=tz_name)


def test_yesterday_is_the_day_before_the_channels_today() -> None:
    # 17:00 on Nov 30 in Los Angeles is already Dec 1 in UTC: the channel's yesterday is still Nov 29.
    evening = datetime(2026, 12, 1, 1, 0, tzinfo=UTC)
    spend = make_spend(daily=[DailySpend(day=f"2026-11-{d:02d}", usd=100.0 * d) for d in range(1, 31)])
    local = [b["text"]["text"] for b in digest_blocks(_data(spend, tz_name="America/Los_Angeles"), now=evening)]
    utc = [b["text"]["text"] for b in digest_blocks(_data(spend), now=evening)]
    assert "*Yesterday* (Sun Nov 29): $2,900 (+4% on the day before)" in local
    assert local[0] == "*AWS spend · team-ml · Mon Nov 30*"
    assert "*Yesterday* (Mon Nov 30): $3,000 (+3% on the day before)" in utc
    # 09:00 on Dec 1 in Sydney is still Nov 30 in UTC: that billing day is not over, so the digest says which is.
    morning = datetime(2026, 11, 30, 22, 0, tzinfo=UTC)
    east = [b["text"]["text"] for b in digest_blocks(_data(spend, tz_name="Australia/Sydney"), now=morning)]
    assert east[0] == "*AWS spend · team-ml · Tue Dec 1*"
    assert "*Last full billing day* (Sun Nov 29): $2,900 (+4% on the day before)" in east
    assert east[1].startswith("*Month to date*: $38,420 of $50,000 budget")  # November's, still the source's month


def test_burn_up_ends_at_month_to_date_and_walks_back_through_the_days() -> None:
    spend = make_spend(month_to_date_usd=1000.0, forecast_usd=450.0, budget_usd=1500.0,
                       daily=[DailySpend(day="2026-11-27", usd=100.0), DailySpend(day="2026-11-29", usd=200.0)])
    curve = burn_up(spend, today=date(2026, 11, 30))
    # End of Nov 29 is the month to date; Nov 28 is a day the series covers without cost; before Nov 27 unknown.
    assert curve.actual == [(26, 700.0), (27, 800.0), (28, 800.0), (29, 1000.0)]
    assert len(curve.month_days) == 30 and curve.projected_usd == 1450.0
    assert curve.over_budget is False and curve.pace_usd(15) == 750.0
    assert burn_up(spend.model_copy(update={"forecast_usd": 600.0}), today=date(2026, 11, 30)).over_budget


def test_an_over_budget_forecast_is_never_worded_as_within() -> None:
    over = make_spend(forecast_usd=14_000.0)  # $38,420 + $14,000 > $50,000
    texts = "\n".join(b["text"]["text"] for b in digest_blocks(_data(over), now=NOW))
    assert "🔴 over budget by $2,420" in texts and "within budget" not in texts
    assert burn_up(over, today=NOW.date()).over_budget
    spent_over = make_spend(month_to_date_usd=51_000.0, forecast_usd=0.0)
    texts = "\n".join(b["text"]["text"] for b in digest_blocks(_data(spent_over), now=NOW))
    assert "🔴 over budget by $1,000" in texts and "within budget" not in texts


def test_without_a_spend_source_no_chart_and_one_line_on_connecting_one(
        bot: BotHarness, service: FakeService, slack: FakeSlack) -> None:
    service.spend = SpendSnapshot.unavailable(team="team-ml", reason="no spend source is configured",
                                              budget_usd=50_000.0)
    digest = build_digest(bot.service, team="team-ml", now=NOW)
    texts = [b["text"]["text"] for b in digest.blocks]
    assert digest.png is None
    assert texts[1] == "*Month to date*: spend unavailable: no spend source is configured"
    assert [t for t in texts if "spend source is connected" in t] == [CONNECT_A_SOURCE]
    assert deliver_once(bot.service, build_web_client(bot.settings), team="team-ml", channel="C0DIGEST",
                        day="2026-11-30", now=NOW)
    [posted] = slack.of("chat.postMessage")
    assert posted.blocks == digest.blocks and slack.of("files.getUploadURLExternal") == []


def test_the_digest_is_one_post_with_its_chart(bot: BotHarness, slack: FakeSlack) -> None:
    assert deliver_once(bot.service, build_web_client(bot.settings), team="team-ml", channel="C0DIGEST",
                        day="2026-11-30", now=NOW, tz_name="America/Los_Angeles")
    [complete] = slack.of("files.completeUploadExternal")
    [upload] = slack.of("upload")
    assert slack.of("chat.postMessage") == []  # the text travels with the chart, not as a second message
    assert complete.body["channel_id"] == "C0DIGEST" and complete.answer["ok"] is True
    assert complete.blocks[0]["text"]["text"] == "*AWS spend · team-ml · Mon Nov 30*"
    assert {b["type"] for b in complete.blocks} == {"section"}
    assert upload.raw.startswith(b"\x89PNG")


def test_many_jobs_fit_the_block_limit_and_name_no_internal_file() -> None:
    blocks = digest_blocks(_data(make_spend(), running=40), now=NOW)
    assert len(blocks) <= MAX_MESSAGE_BLOCKS
    text = json.dumps(blocks, ensure_ascii=False)
    assert "… and 30 more" in text
    assert not re.search(r"\w\.(py|json|ya?ml)\b", text)


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
    [url_call] = slack.of("files.getUploadURLExternal")
    [upload] = slack.of("upload")
    [complete] = slack.of("files.completeUploadExternal")
    assert url_call.body["filename"] == "spend-team-ml.png"
    assert upload.raw.startswith(b"\x89PNG") and int(url_call.body["length"]) == len(upload.raw)
    assert complete.body["channel_id"] == "C0DIGEST" and complete.blocks  # one post: the chart and its text
    assert service.done == [{"channel": "C0DIGEST", "date": "2026-11-30", "ok": True}]
