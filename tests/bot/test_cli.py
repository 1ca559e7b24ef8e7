"""``gpuops digest --team T --out DIR [--post]`` and ``gpuops bot`` without Slack credentials."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bot.settings import get_settings
from gpuops.cli import app
from tests.bot.factories import make_request
from tests.bot.fake_service import TOKEN, FakeService
from tests.bot.fake_slack import FakeSlack


@pytest.fixture
def env(monkeypatch: pytest.MonkeyPatch, slack: FakeSlack, service: FakeService, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)  # no `gpuops dev` connection file of the checkout stands in for a missing setting
    for key, value in {"SLACK_BOT_TOKEN": "xoxb-test", "SLACK_SIGNING_SECRET": "s", "SLACK_API_URL": slack.api_url,
                       "GPUOPS_SERVICE_URL": service.url, "GPUOPS_SERVICE_TOKEN": TOKEN}.items():
        monkeypatch.setenv(key, value)
    get_settings.cache_clear()


def test_digest_writes_the_blocks_and_the_chart(env: None, tmp_path: Path, slack: FakeSlack) -> None:
    result = CliRunner().invoke(app, ["digest", "--team", "team-ml", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    written = json.loads((tmp_path / "digest.json").read_text())
    assert written["blocks"][0]["text"]["text"].startswith("*AWS spend · team-ml · ")
    assert (tmp_path / "spend-team-ml.png").read_bytes().startswith(b"\x89PNG")
    assert slack.of("chat.postMessage") == []


def test_digest_post_claims_the_day_once(env: None, slack: FakeSlack, service: FakeService) -> None:
    first = CliRunner().invoke(app, ["digest", "--team", "team-ml", "--post"])
    second = CliRunner().invoke(app, ["digest", "--team", "team-ml", "--post"])
    assert first.exit_code == 0 and first.output.strip().endswith("posted to C0DIGEST")
    assert "already posted to C0DIGEST" in second.output
    assert slack.of("chat.postMessage") == [] and len(slack.of("files.completeUploadExternal")) == 1


def test_bot_refuses_to_start_without_slack_credentials(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SLACK_BOT_TOKEN", raising=False)
    monkeypatch.delenv("SLACK_SIGNING_SECRET", raising=False)
    get_settings.cache_clear()
    result = CliRunner().invoke(app, ["bot"])
    assert result.exit_code == 2
    assert "SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET must be set" in result.output
    get_settings.cache_clear()


def test_a_bot_settings_error_never_shows_the_slack_secrets() -> None:
    from pydantic import ValidationError

    from bot.settings import BotSettings

    with pytest.raises(ValidationError) as raised:  # no signing secret: refused, and the token is not repeated
        BotSettings(SLACK_BOT_TOKEN="xoxb-SECRET", GPUOPS_ENV="production")
    message = str(raised.value)
    assert "SLACK_SIGNING_SECRET must be set" in message
    assert "xoxb" not in message and "input_value" not in message


@pytest.mark.parametrize("command", [["digest", "--team", "team-ml"], ["bot"]])
def test_without_a_service_token_the_commands_say_which_setting_to_set(
        env: None, monkeypatch: pytest.MonkeyPatch, command: list[str]) -> None:
    monkeypatch.setenv("GPUOPS_SERVICE_TOKEN", "")
    get_settings.cache_clear()
    result = CliRunner().invoke(app, command)
    assert result.exit_code == 2
    assert "GPUOPS_SERVICE_TOKEN must be set" in result.output
    assert "Traceback" not in result.output and len(result.output.splitlines()) <= 3


def test_digest_with_the_service_away_says_so_in_one_line(env: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GPUOPS_SERVICE_URL", "http://127.0.0.1:9")
    get_settings.cache_clear()
    result = CliRunner().invoke(app, ["digest", "--team", "team-ml"])
    assert result.exit_code == 1
    assert result.output.strip() == ("gpuops digest: the gpuops service is unreachable "
                                     "(GPUOPS_SERVICE_URL=http://127.0.0.1:9)")


def test_approve_as_a_slack_person_goes_through_the_service_as_the_bot(env: None, service: FakeService) -> None:
    service.requests["req_1"] = make_request()
    result = CliRunner().invoke(app, ["approve", "req_1", "--as", "slack:T0GPUOPS:U0LEAD1", "--revision", "1"])
    assert result.exit_code == 0, result.output
    assert result.output == "req_1 revision 1: approved\n"
    [call] = [c for c in service.calls if c[1] == "/v1/requests/req_1/approvals"]
    assert call[2]["x-gpuops-actor"] == "slack:T0GPUOPS:U0LEAD1"
    assert call[2]["authorization"] == f"Bearer {TOKEN}"


def test_approve_refused_by_the_service_says_why(env: None, service: FakeService) -> None:
    service.requests["req_1"] = make_request()
    result = CliRunner().invoke(app, ["approve", "req_1", "--as", "slack:T0GPUOPS:U0RANDOM"])
    assert result.exit_code == 1
    assert "only members of ml-leads can approve experimental requests of team-ml" in result.output
    assert service.requests["req_1"].approvals == []


def test_reject_from_the_terminal_needs_a_reason(env: None, service: FakeService) -> None:
    service.requests["req_1"] = make_request()
    result = CliRunner().invoke(app, ["approve", "req_1", "--as", "slack:T0GPUOPS:U0LEAD1", "--reject"])
    assert result.exit_code == 2 and "--reason" in result.output
    result = CliRunner().invoke(app, ["approve", "req_1", "--as", "slack:T0GPUOPS:U0LEAD1", "--reject",
                                      "--reason", "next week"])
    assert result.output == "req_1 revision 1: rejected\n"
    assert service.requests["req_1"].approvals[0].comment == "next week"
