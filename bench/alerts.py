"""Alert figures: how many days ahead the budget warnings of the shipped sample month fire, against the day actual
spend crosses each level, and how long one tracker round takes for 200 running jobs. Stand-ins on 127.0.0.1."""

from __future__ import annotations

import json
import statistics
import tempfile
import time
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from policy.config import default_policy
from policy.projection import BUDGET_LEVELS
from service.alerts.budget import check_team_budget
from service.spend.providers import FileSpend, sample_spend_path

RUNNING_JOBS = 200


def _sample() -> dict[str, list[tuple[date, float]]]:
    document = json.loads(Path(sample_spend_path()).read_text(encoding="utf-8"))
    return {team: [(date.fromisoformat(d["day"]), float(d["usd"])) for d in entry["daily"]]
            for team, entry in document["teams"].items()}


def _actual_crossings(daily: list[tuple[date, float]], budget: float) -> dict[int, date]:
    """The day cumulative spend reaches each level (billing data shows it the next day at the earliest)."""
    crossed: dict[int, date] = {}
    total = 0.0
    for day, usd in daily:
        total += usd
        for level in BUDGET_LEVELS:
            if level not in crossed and total >= budget * level / 100:
                crossed[level] = day
    return crossed


def replay_month(team: str, daily: list[tuple[date, float]], folder: Path) -> dict[int, date]:
    """Run the budget check each morning of the month as the worker would, on the days before it only: the day
    each level was first said. The rest of the month is the run-rate stand-in, since no forecast of those days
    was kept; running and reserved jobs are none (the sample holds spend only)."""
    from tests.aws.launchkit import migrated_engine

    policy = default_policy()
    engine = migrated_engine(f"sqlite:///{folder}/{team}.db")
    fired: dict[int, date] = {}
    path = folder / f"{team}.json"
    for index, (day, _) in enumerate(daily):
        now = datetime(day.year, day.month, day.day, 6, tzinfo=UTC)
        before = daily[:index]
        path.write_text(json.dumps({"as_of": now.isoformat(), "teams": {team: {
            "month_to_date_usd": round(sum(usd for _, usd in before), 2),
            "daily": [{"day": d.isoformat(), "usd": usd} for d, usd in before]}}}))
        data = check_team_budget(engine=engine, spend=FileSpend(str(path), clock=lambda now=now: now),
                                 policy=policy, team=team, now=now)
        for level in (data or {}).get("levels", []):
            fired[int(level)] = day
    engine.dispose()
    return fired


def lead_times() -> list[str]:
    policy = default_policy()
    lines = []
    with tempfile.TemporaryDirectory() as folder:
        for team, daily in sorted(_sample().items()):
            budget = policy.team(team).monthly_budget_usd or 0.0
            fired = replay_month(team, daily, Path(folder))
            actual = _actual_crossings(daily, budget)
            total = sum(usd for _, usd in daily)
            lines.append(f"  {team}: budget ${budget:,.0f}, the month's {len(daily)} days total ${total:,.0f} "
                         f"({total / budget:.0%})")
            for level in BUDGET_LEVELS:
                said, crossed = fired.get(level), actual.get(level)
                if said is None and crossed is None:
                    lines.append(f"    {level:>3}%: not reached, not said")
                    continue
                lead = f"{(crossed - said).days:+d} days ahead" if said and crossed else "-"
                lines.append(f"    {level:>3}%: said {said or 'never'}, spend crossed {crossed or 'never'}"
                             f" (billing shows it {crossed + timedelta(days=1) if crossed else 'never'}): {lead}")
    return lines


def tracker_round(jobs: int = RUNNING_JOBS) -> tuple[float, float]:
    """Seconds for one tracker round over ``jobs`` running SageMaker jobs (first round and a later one)."""
    from service.jobs.tracker import track_jobs
    from service.launch.worker import drain
    from tests.aws.fakeaws import start_fake_aws
    from tests.aws.launchkit import NOW, FakeSageMaker, launch_policy, migrated_engine, new_request
    from tests.aws.test_launch import _ctx

    fake, server = start_fake_aws()
    sagemaker = FakeSageMaker(fake).install()
    policy = launch_policy()
    policy = policy.model_copy(update={"teams": {**policy.teams, "team-ml": policy.teams["team-ml"].model_copy(
        update={"monthly_budget_usd": 1e9})}})
    try:
        with tempfile.TemporaryDirectory() as folder:
            engine = migrated_engine(f"sqlite:///{folder}/bench.db")
            ctx = _ctx(engine, policy, url=fake.url)
            for _ in range(jobs):
                new_request(engine=engine, policy=policy)
            drain(ctx=ctx)
            for name in sagemaker.jobs:
                sagemaker.update(name, SecondaryStatus="Training", TrainingStartTime=NOW.timestamp())
            rounds: list[float] = []
            for minutes in (5, 10, 15):
                began = time.perf_counter()
                polled = track_jobs(engine=engine, env=ctx.env, catalog=ctx.catalog,
                                    now=NOW + timedelta(minutes=minutes))
                rounds.append(time.perf_counter() - began)
            assert polled == jobs, f"a round polled {polled} of {jobs} jobs"
            engine.dispose()
    finally:
        server.shutdown()
        server.server_close()
    return rounds[0], statistics.median(rounds[1:])


def cost_explorer_requests(*, days: int = 3, plans_per_day: int = 1000, teams: int = 5,
                           round_minutes: float = 5.0) -> tuple[dict[tuple[str, str], int], int]:
    """Cost Explorer requests per (team, UTC day) with every feature on, on a simulated clock: ``plans_per_day``
    plans spread over the day across the teams (each reads spend), and the worker's alert round every
    ``round_minutes`` (budget projection, anomalies, commitment advice). Also the account-wide requests (the Savings
    Plans recommendation), which name no team."""
    from service.alerts.rounds import run_alerts
    from service.aws.clients import ClientFactory
    from service.aws.costexplorer import SpendProvider
    from service.aws.savingsplans import fetch_sagemaker_recommendation
    from service.cache import MemoryCache
    from tests.aws.conftest import SimClock, dummy_session
    from tests.aws.fakeaws import start_fake_aws
    from tests.aws.launchkit import migrated_engine

    fake, server = start_fake_aws()
    fake.on("GetCostAndUsage", lambda _body: {"ResultsByTime": [], "DimensionValueAttributes": []})
    fake.on("GetCostForecast", lambda _body: {"Total": {"Amount": "1000", "Unit": "USD"}})
    fake.on("CreateAnomalyMonitor", lambda body: {
        "MonitorArn": f"arn:aws:ce::1:anomalymonitor/{body['AnomalyMonitor']['MonitorName']}"})
    fake.on("GetAnomalies", lambda _body: {"Anomalies": []})
    fake.on("GetSavingsPlansPurchaseRecommendation", lambda _body: {"SavingsPlansPurchaseRecommendation": {}})
    policy = default_policy().model_copy(update={
        "teams": {f"team-{i}": default_policy().teams["team-ml"] for i in range(teams)}, "default_team": "team-0"})
    policy = policy.model_copy(update={"teams": {name: team.model_copy(update={
        "cost_allocation_tag": team.cost_allocation_tag.model_copy(update={"value": name})})
        for name, team in policy.teams.items()}})
    start = datetime(2026, 11, 3, 0, 0, tzinfo=UTC)
    clock = SimClock(start)
    factory = ClientFactory(session=dummy_session(), endpoint_urls={"ce": fake.url})
    client = factory.client("ce")
    spend = SpendProvider(factory=factory, cache=MemoryCache(clock=clock.seconds), clock=clock)
    moments = [(start + timedelta(days=1) * days * i / (plans_per_day * days), "plan", i % teams)
               for i in range(plans_per_day * days)]
    rounds = int(days * 24 * 60 / round_minutes)
    moments += [(start + timedelta(minutes=round_minutes * r), "round", 0) for r in range(rounds)]
    counted: dict[tuple[str, str], int] = {}
    account = 0
    try:
        with tempfile.TemporaryDirectory() as folder:
            engine = migrated_engine(f"sqlite:///{folder}/requests.db")
            for moment, kind, team in sorted(moments, key=lambda m: (m[0], m[1])):
                clock.now = moment
                before = len(fake.requests)
                if kind == "plan":
                    spend.get_spend(team=f"team-{team}", policy=policy)
                else:
                    run_alerts(engine=engine, spend=spend, policy=policy, now=moment, cost_explorer=lambda: client,
                               recommend=lambda: fetch_sagemaker_recommendation(client=client))
                for _, body in fake.requests[before:]:
                    owner = _team_of(body)
                    if owner is None:
                        account += 1
                        continue
                    key = (owner, moment.date().isoformat())
                    counted[key] = counted.get(key, 0) + 1
            engine.dispose()
    finally:
        server.shutdown()
        server.server_close()
    return counted, account


def _team_of(body: dict[str, object]) -> str | None:
    """The team a request is about (its tag filter or its monitor), None for account-wide requests."""
    text = json.dumps(body)
    for marker in ("gpuops-team-", '"team-'):
        if marker in text:
            index = text.index(marker) + len(marker) - len("team-")
            return text[index:index + len("team-0")]
    return None


def run() -> None:
    print("Budget warnings for the shipped sample month (GPUOPS_SPEND=sample), replayed each morning at 06:00 UTC:")
    for line in lead_times():
        print(line)
    counted, account = cost_explorer_requests()
    worst = max(counted.values())
    print(f"Cost Explorer requests per team per day, 1,000 plans/day over 5 teams, alert round every 5 min, 3 days "
          f"(simulated clock): max {worst}, by day {sorted(set(counted.values()))}; account-wide "
          f"(Savings Plans recommendation): {account} in 3 days")
    first, later = tracker_round()
    print(f"Tracker round for {RUNNING_JOBS} running SageMaker jobs (DescribeTrainingJob stand-in on 127.0.0.1, "
          f"SQLite): first {first:.2f} s, then {later:.2f} s")


