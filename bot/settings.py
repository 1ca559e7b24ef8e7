"""Settings of the Slack bot, read from the environment (no work at import time)."""

from __future__ import annotations

from functools import cache

from pydantic import Field, SecretStr, model_validator

from contract.environment import EnvironmentSettings

SLACK_API_URL = "https://slack.com/api/"
_PLACEHOLDERS = {"", "changeme", "change-me", "xoxb-changeme", "secret", "placeholder"}


class BotSettings(EnvironmentSettings):
    """Slack credentials, where the service is, and where the bot listens; each field from the variable its alias
    names. Errors never show the values given (``contract.environment``): the Slack secrets stay out of them."""

    # Bot User OAuth Token (xoxb-…) of the app created from deploy/slack-app-manifest.yaml.
    slack_bot_token: SecretStr = Field(default=SecretStr(""), alias="SLACK_BOT_TOKEN")
    # Signing Secret: every request from Slack is checked against it (HMAC, 5-minute window).
    slack_signing_secret: SecretStr = Field(default=SecretStr(""), alias="SLACK_SIGNING_SECRET")
    # App-level token (xapp-…, connections:write); when set the bot runs in Socket Mode.
    slack_app_token: SecretStr | None = Field(default=None, alias="SLACK_APP_TOKEN")
    # Base URL of the Slack Web API (tests and local stand-ins point it elsewhere).
    slack_api_url: str = Field(default=SLACK_API_URL, alias="SLACK_API_URL")
    # Where the gpuops service API is.
    service_url: str = Field(default="http://127.0.0.1:8000", alias="GPUOPS_SERVICE_URL")
    # The service API token with the bot role (the bot: entry of GPUOPS_API_TOKENS).
    service_token: SecretStr = Field(default=SecretStr(""), alias="GPUOPS_SERVICE_TOKEN")
    # Seconds per service call; a Slack handler has 3 s in all, so a slow service becomes a "try again" message.
    service_timeout: float = Field(default=2.0, gt=0, le=10, alias="GPUOPS_BOT_SERVICE_TIMEOUT")
    # Address the bot listens on (HTTP mode: Slack's endpoint; always: /healthz and /metrics).
    host: str = Field(default="0.0.0.0", alias="GPUOPS_BOT_HOST")
    # Port the bot listens on.
    port: int = Field(default=3000, ge=1, le=65535, alias="GPUOPS_BOT_PORT")
    # Threads for Bolt's acks and lazy listeners; they mostly wait on the service and Slack.
    listener_threads: int = Field(default=64, ge=4, le=512, alias="GPUOPS_BOT_LISTENER_THREADS")
    # Larger request bodies are refused with 413 before they are read or their signature checked. Slack's own
    # deliveries stay far below 1 MiB: message text is cut at 40,000 characters, and the biggest payloads repeat a
    # whole message (an app_mention carries its text twice, as text and as rich_text blocks; a button click carries
    # the message it sits on, up to 50 blocks of 3,000 characters, form-encoded), which JSON escapes and
    # percent-encoding can swell to a few hundred KiB. 64 KiB, enough for commands, could refuse such clicks.
    max_body_bytes: int = Field(default=1024 * 1024, ge=64 * 1024, le=16 * 1024 * 1024,
                                alias="GPUOPS_BOT_MAX_BODY_BYTES")
    # development or production; outside development placeholder secrets refuse to start.
    environment: str = Field(default="development", alias="GPUOPS_ENV")
    # Follow the events feed (message updates, thread replies). Run it on exactly one replica.
    feed_enabled: bool = Field(default=True, alias="GPUOPS_BOT_FEED")
    # Run the digest scheduler; safe on several replicas (the service's claim makes each digest once).
    digest_enabled: bool = Field(default=True, alias="GPUOPS_BOT_DIGEST")
    # Seconds between polls of the events feed.
    feed_poll_seconds: float = Field(default=2.0, gt=0, alias="GPUOPS_BOT_FEED_POLL_SECONDS")

    # Address of the published Sources page (docs/sources.md), e.g. on the repository's web view: the Why? dialog
    # links each rule it names to its entry there. Empty: rules are named without a link.
    sources_url: str = Field(default="", alias="GPUOPS_SOURCES_URL")

    @model_validator(mode="after")
    def _refuse_placeholders_outside_development(self) -> BotSettings:
        if self.environment == "development":
            return self
        for name in ("slack_bot_token", "slack_signing_secret", "service_token"):
            value: SecretStr = getattr(self, name)
            if value.get_secret_value().strip().lower() in _PLACEHOLDERS:
                raise ValueError(f"{name.upper()} must be set outside development")
        return self

    @property
    def socket_mode(self) -> bool:
        return self.slack_app_token is not None and bool(self.slack_app_token.get_secret_value())

    @property
    def slack_configured(self) -> bool:
        return bool(self.slack_bot_token.get_secret_value() and self.slack_signing_secret.get_secret_value())


@cache
def get_settings() -> BotSettings:
    return BotSettings()
