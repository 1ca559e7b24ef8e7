"""The service's one settings object, read from the environment (``GPUOPS_`` prefix).

``DATABASE_URL`` and ``REDIS_URL`` are also read without the prefix, the names every platform sets. Secrets are
``SecretStr`` and never logged; outside development a placeholder secret refuses to start the service.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

from pydantic import AliasChoices, Field, SecretStr, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

ROLES = ("bot", "admin", "viewer")
PLACEHOLDER_SECRETS = frozenset(
    {"changeme", "change-me", "change_me", "secret", "password", "token", "placeholder", "example", "xxx", "todo",
     "test", "dev", "default"}
)
MIN_SECRET_CHARS = 16


def parse_tokens(raw: str) -> dict[str, str]:
    """``role:token,role:token`` → {token: role}; raises ValueError naming the bad pair."""
    tokens: dict[str, str] = {}
    for index, pair in enumerate(p.strip() for p in raw.split(",")):
        if not pair:
            continue
        role, sep, token = pair.partition(":")
        if not sep or role not in ROLES or not token:
            raise ValueError(f"GPUOPS_API_TOKENS pair {index + 1} must be role:token with role one of {ROLES}")
        tokens[token] = role
    return tokens


class Settings(BaseSettings):
    """Configuration of ``gpuops service``; every field has an embedded default that runs on a bare machine."""

    model_config = SettingsConfigDict(env_prefix="GPUOPS_", extra="ignore", populate_by_name=True)

    env: Literal["development", "production"] = "development"
    database_url: str = Field(
        default="sqlite:///./gpuops.db", validation_alias=AliasChoices("database_url", "DATABASE_URL")
    )
    redis_url: str | None = Field(default=None, validation_alias=AliasChoices("redis_url", "REDIS_URL"))
    api_tokens: SecretStr = SecretStr("")
    policy_file: str | None = Field(default=None, validation_alias=AliasChoices("policy_file", "GPUOPS_POLICY"))
    catalog_file: str | None = Field(default=None, validation_alias=AliasChoices("catalog_file", "GPUOPS_CATALOG"))
    catalog_dir: str = "var/catalog"  # where `gpuops catalog refresh` keeps snapshots; current.json is in force
    spend: Literal["auto", "unavailable", "sample", "file", "costexplorer"] = "auto"
    spend_file: str | None = None
    spend_ttl_seconds: float = Field(default=3600, gt=0)
    launch: Literal["dry-run", "live"] = "dry-run"
    max_body_bytes: int = Field(default=64 * 1024, ge=1024)
    sweep_interval_seconds: float = Field(default=60, gt=0)
    redis_retry_seconds: float = Field(default=10, gt=0)
    db_pool_size: int = Field(default=20, ge=1)
    log_level: str = "INFO"

    @model_validator(mode="after")
    def _check(self) -> Settings:
        tokens = parse_tokens(self.api_tokens.get_secret_value())
        if self.env != "development":
            if not tokens:
                raise ValueError("GPUOPS_API_TOKENS must be set outside development")
            for token, role in tokens.items():
                if token.lower() in PLACEHOLDER_SECRETS or len(token) < MIN_SECRET_CHARS:
                    raise ValueError(
                        f"the {role} token in GPUOPS_API_TOKENS looks like a placeholder; "
                        f"use a random value of at least {MIN_SECRET_CHARS} characters"
                    )
        if self.spend == "file" and not self.spend_file:
            raise ValueError("GPUOPS_SPEND=file needs GPUOPS_SPEND_FILE")
        return self

    def token_roles(self) -> dict[str, str]:
        """{token: role} from ``GPUOPS_API_TOKENS``."""
        return parse_tokens(self.api_tokens.get_secret_value())

    @property
    def is_sqlite(self) -> bool:
        return self.database_url.startswith("sqlite")


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The process's settings, read once."""
    return Settings()
