"""Every failure of a ``gpuops`` command is one line with what to do; ``--debug`` shows the traceback instead.
And ``gpuops doctor``, the command that checks everything: its lines and its exit status."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from pydantic import ValidationError
from sqlalchemy.exc import OperationalError
from typer.testing import CliRunner

from bot.settings import get_settings as bot_settings
from gpuops.cli import app
from gpuops.cli_errors import one_line
from gpuops.devrun import DevRun, write_dev_run
from policy.config import default_policy
from policy.errors import PolicyFileError, RequestError
from service.settings import Settings, get_settings
from service.store.migrate import upgrade
from tests.bot.fake_service import TOKEN, FakeService
from tests.catalogs import refreshed_today

UNREACHABLE_DB = "postgresql+psycopg://gpuops:s3cret@127.0.0.1:9/gpuops"


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    for name in ("DATABASE_URL", "REDIS_URL", "GPUOPS_POLICY", "GPUOPS_SPEND", "SLACK_BOT_TOKEN", "GPUOPS_DEBUG",
                 "SLACK_SIGNING_SECRET", "GPUOPS_SERVICE_TOKEN", "GPUOPS_SERVICE_URL", "AWS_ACCESS_KEY_ID",
                 "AWS_SECRET_ACCESS_KEY", "AWS_PROFILE", "AWS_SESSION_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_CONFIG_FILE", "/dev/null")
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", "/dev/null")
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")
    monkeypatch.chdir(tmp_path)
    get_settings.cache_clear()
    bot_settings.cache_clear()
    yield
    get_settings.cache_clear()
    bot_settings.cache_clear()


def test_a_database_that_does_not_answer_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DATABASE_URL", UNREACHABLE_DB)
    result = CliRunner().invoke(app, ["jobs"])
    assert result.exit_code == 1
    [line] = result.output.splitlines()
    assert line.startswith("gpuops jobs: the database is not answering (")
    assert line.endswith("; check DATABASE_URL and that it is running")
    assert "s3cret" not in line and "Traceback" not in result.output


def test_debug_shows_the_traceback_instead(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DATABASE_URL", UNREACHABLE_DB)
    result = CliRunner().invoke(app, ["--debug", "jobs"])
    assert isinstance(result.exception, OperationalError)


def test_an_unmigrated_database_says_which_command_fixes_it(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'new.db'}")
    result = CliRunner().invoke(app, ["jobs"])
    assert result.exit_code == 1
    assert result.output == "gpuops jobs: the database has no gpuops tables yet; run `gpuops db upgrade`\n"


@pytest.mark.parametrize(("argv", "said"), [
    (["digets"], ": No such command 'digets'. Did you mean 'digest'?; `"),
    (["digest"], " digest: Missing option '--team'; `"),
])
def test_a_usage_error_is_one_line(argv: list[str], said: str) -> None:
    result = CliRunner().invoke(app, argv, prog_name="gpuops")
    assert result.exit_code == 2
    [line] = result.output.splitlines()
    assert said in line and line.startswith("gpuops") and line.endswith("--help` lists what it takes")


def test_one_line_for_each_kind_of_failure() -> None:
    assert one_line(RequestError("text is empty", code="empty_text")) == "text is empty [empty_text]"
    assert one_line(PolicyFileError("p.yaml", [("teams.x", "unknown"), ("a", "b")])) == (
        "p.yaml: teams.x: unknown (and 1 more); `gpuops policy check p.yaml` lists them all")
    assert one_line(FileNotFoundError(2, "No such file", "/nope.yaml")) == (
        "no such file: /nope.yaml; check the path (or the setting that names it)")
    with pytest.raises(ValidationError) as raised:
        Settings(spend="bogus")  # type: ignore[arg-type]
    assert one_line(raised.value).startswith("a setting is not valid: spend: Input should be")
    assert one_line(KeyError("x")) == "unexpected KeyError: 'x'; run again with --debug for the traceback"
    assert "\n" not in one_line(RuntimeError("two\nlines"))


def test_doctor_on_the_embedded_defaults_passes_and_skips_the_rest(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    url = f"sqlite:///{tmp_path / 'gpuops.db'}"
    upgrade(url)
    monkeypatch.setenv("DATABASE_URL", url)
    monkeypatch.setenv("GPUOPS_CATALOG_DIR", refreshed_today(tmp_path / "catalog"))  # prices young enough to trust
    result = CliRunner().invoke(app, ["doctor"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert [line.split(":")[0] for line in lines] == [
        "✓ settings", "✓ database", "– redis", "✓ prices", "– aws identity", "– iam actions", "– team training roles",
        "– cost explorer",
        "– cost allocation tags", "– slack auth", "– policy slack ids"]
    assert lines[-1] == "– policy slack ids: skipped: not configured: SLACK_BOT_TOKEN is not set"


def test_doctor_fails_on_prices_older_than_the_policy_trusts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    url = f"sqlite:///{tmp_path / 'gpuops.db'}"
    upgrade(url)
    monkeypatch.setenv("DATABASE_URL", url)
    stale = tmp_path / "stale.yaml"  # no price is young enough for this policy
    policy = default_policy().model_copy(update={"spot_prices_stale_after_days": 0.5, "prices_stale_after_days": 0.5})
    stale.write_text(yaml.safe_dump(policy.model_dump(mode="json")))
    monkeypatch.setenv("GPUOPS_POLICY", str(stale))
    result = CliRunner().invoke(app, ["doctor"])
    assert result.exit_code == 1
    [line] = [line for line in result.output.splitlines() if line.startswith("✗ prices: ")]
    assert line.endswith("plans priced on them are never approved automatically → fix: run `gpuops catalog refresh` "
                         "(reads current prices from AWS)")


def test_doctor_exits_non_zero_naming_the_fix(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'new.db'}")
    monkeypatch.setenv("REDIS_URL", "redis://127.0.0.1:9/0")
    result = CliRunner().invoke(app, ["doctor"])
    assert result.exit_code == 1
    assert "✗ redis: redis://127.0.0.1:9/0 does not answer (ConnectionError) → fix: check REDIS_URL" in result.output
    assert "→ fix: run `gpuops db upgrade`" in result.output
    assert result.output.splitlines()[-1] == "2 check(s) failed"


def test_doctor_names_slack_settings_that_do_not_go_together(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    url = f"sqlite:///{tmp_path / 'gpuops.db'}"
    upgrade(url)
    monkeypatch.setenv("DATABASE_URL", url)
    monkeypatch.setenv("SLACK_BOT_TOKEN", "xoxb-SECRET-0123456789")
    monkeypatch.setenv("GPUOPS_ENV", "production")
    result = CliRunner().invoke(app, ["doctor"])
    assert result.exit_code == 1
    assert "✗ slack settings: " in result.output and "SLACK_SIGNING_SECRET must be set" in result.output
    assert "xoxb-SECRET" not in result.output


def test_digest_finds_the_service_of_gpuops_dev_in_this_directory(tmp_path: Path) -> None:
    service = FakeService().start()
    try:
        write_dev_run(DevRun(service_url=service.url, bot_token=TOKEN, pid=os.getpid()),
                      folder=tmp_path)
        result = CliRunner().invoke(app, ["digest", "--team", "team-ml"])
    finally:
        service.stop()
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"using the service of `gpuops dev` at {service.url} (from .gpuops-dev.json)\n")
    assert "*AWS spend · team-ml · " in result.output
    assert (tmp_path / ".gpuops-dev.json").stat().st_mode & 0o777 == 0o600


def test_digest_without_a_service_says_what_it_needs(tmp_path: Path) -> None:
    gone = DevRun(service_url="http://127.0.0.1:9", bot_token="t", pid=2**22 + 12345)  # no such process
    write_dev_run(gone, folder=tmp_path)
    result = CliRunner().invoke(app, ["digest", "--team", "team-ml"])
    assert result.exit_code == 2
    [line] = result.output.splitlines()
    assert line.startswith("GPUOPS_SERVICE_TOKEN must be set")


def test_gpuops_service_migrates_the_embedded_database_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from gpuops.cli_service import _migrate_embedded_database
    from service.store.db import make_engine
    from service.store.migrate import schema_behind

    assert _migrate_embedded_database()  # no DATABASE_URL: ./gpuops.db in the working directory (tmp_path here)
    engine = make_engine("sqlite:///./gpuops.db")
    try:
        assert schema_behind(engine) is None
    finally:
        engine.dispose()
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'theirs.db'}")
    get_settings.cache_clear()
    assert not _migrate_embedded_database() and not (tmp_path / "theirs.db").exists()
