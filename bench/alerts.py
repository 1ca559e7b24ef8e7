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


def run() -> None:
    print("Budget warnings for the shipped sample month (GPUOPS_SPEND=sample), replayed each morning at 06:00 UTC:")
    for line in lead_times():
        print(line)
    first, later = tracker_round()
    print(f"Tracker round for {RUNNING_JOBS} running SageMaker jobs (DescribeTrainingJob stand-in on 127.0.0.1, "
          f"SQLite): first {first:.2f} s, then {later:.2f} s")


