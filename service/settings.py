"""The service's one settings object, read from the environment (``GPUOPS_`` prefix).

``DATABASE_URL`` and ``REDIS_URL`` are also read without the prefix, the names every platform sets. Secrets are
``SecretStr`` and never logged; outside development a placeholder secret refuses to start the service.
"""

from __future__ import annotations

from functools import lru_cache
from typing import ClassVar, Literal

from pydantic import AliasChoices, Field, SecretStr, field_validator, model_validator

from contract.environment import EnvironmentSettings

ROLES = ("bot", "admin", "viewer")
PLACEHOLDER_SECRETS = frozenset(
    {"changeme", "change-me", "change_me", "secret", "password", "token", "placeholder", "example", "xxx", "todo",
     "test", "dev", "default"}
)
MIN_SECRET_CHARS = 16
MIN_AUDIT_KEY_CHARS = 32
# Signs the audit chain in development when GPUOPS_AUDIT_KEY is unset. It is public, so it proves nothing; outside
# development it is refused like any placeholder.
DEVELOPMENT_AUDIT_KEY = "gpuops-development-audit-key-public-proves-nothing"


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


class Settings(EnvironmentSettings):
    """Configuration of ``gpuops service``; every field has an embedded default that runs on a bare machine. Errors
    never show the values given (``contract.environment``): tokens and DATABASE_URL stay out of them."""

    ENV_PREFIX: ClassVar[str] = "GPUOPS_"

    # development accepts placeholder secrets and runs without tokens; anything else refuses both.
    env: Literal["development", "production"] = "development"
    # SQLite by default; Postgres as postgresql+psycopg://user:pass@host/db (plain postgresql:// works too).
    database_url: str = Field(
        default="sqlite:///./gpuops.db", validation_alias=AliasChoices("DATABASE_URL", "GPUOPS_DATABASE_URL")
    )
    # Shared cache, rate limits and locks; without it each replica keeps its own in-process cache.
    redis_url: str | None = Field(default=None, validation_alias=AliasChoices("REDIS_URL", "GPUOPS_REDIS_URL"))
    # Starts every key gpuops keeps in Redis, so deployments (or test runs) sharing one Redis database stay apart.
    redis_prefix: str = Field(default="gpuops:", min_length=1)
    # role:token pairs, comma-separated; roles bot, admin, viewer.
    api_tokens: SecretStr = SecretStr("")
    # The policy YAML; the embedded default policy when unset.
    policy_file: str | None = Field(default=None, validation_alias="GPUOPS_POLICY")
    # A catalog snapshot file to plan with (overrides the refreshed one in catalog_dir and the shipped one).
    catalog_file: str | None = Field(default=None, validation_alias="GPUOPS_CATALOG")
    # Where `gpuops catalog refresh` keeps snapshots; current.json there is the one in force.
    catalog_dir: str = "var/catalog"
    # Spend source: auto (file if spend_file, Cost Explorer if AWS credentials, else unavailable), sample, file,
    # costexplorer, unavailable.
    spend: Literal["auto", "unavailable", "sample", "file", "costexplorer"] = "auto"
    # JSON spend figures for GPUOPS_SPEND=file (format in service/spend/providers.py).
    spend_file: str | None = None
    # How long a Cost Explorer figure is reused before it is read again (its data lands 12-24 h late and each
    # request costs $0.01; two reads a day keep a team within 5 requests a day with the alerts' reads, and gpuops'
    # own running jobs count from their live cost in between).
    spend_ttl_seconds: float = Field(default=12 * 3600, gt=0)
    # Capacity source: auto (the AWS account when credentials are configured, else unknown), aws, unknown. Unknown
    # capacity is stated in every plan and keeps plans from automatic approval.
    capacity: Literal["auto", "aws", "unknown"] = "auto"
    # How long quotas, usage, spot placement scores and offerings read from AWS are reused.
    capacity_ttl_seconds: float = Field(default=300, gt=0)
    # dry-run records what a launch would send and ends the request in dry_run; live sends it.
    launch: Literal["dry-run", "live"] = "dry-run"
    # How long a worker's claim on a launch task holds before another worker may take the task over.
    launch_lease_seconds: float = Field(default=300, gt=0)
    # The kubeconfig of the EKS cluster live launches create PyTorchJobs in; without it a live EKS launch is refused.
    kubeconfig: str | None = None
    # The region AWS clients default to: AWS's own variables, AWS_REGION first; us-east-1 when neither is set.
    aws_region: str | None = Field(default=None, validation_alias=AliasChoices("AWS_REGION", "AWS_DEFAULT_REGION"))
    # Attempts per AWS call, the first included (botocore's standard retry mode backs off between them).
    aws_max_attempts: int = Field(default=5, ge=1, le=20)
    # Seconds to wait for a connection to AWS.
    aws_connect_timeout: float = Field(default=5, gt=0)
    # Seconds to wait for AWS to answer on an open connection.
    aws_read_timeout: float = Field(default=30, gt=0)
    # Larger request bodies are refused with 413.
    max_body_bytes: int = Field(default=64 * 1024, ge=1024)
    # How often pending requests past their approval window are expired (and a refreshed catalog picked up).
    sweep_interval_seconds: float = Field(default=60, gt=0)
    # After a Redis failure, how long the in-process cache serves before Redis is tried again.
    redis_retry_seconds: float = Field(default=10, gt=0)
    # Worker threads for the blocking endpoints (database work); more threads mostly add contention.
    threads: int = Field(default=8, ge=1, le=256)
    # Database connections kept per process (as many again may open under bursts).
    db_pool_size: int = Field(default=20, ge=1)
    # Level of the JSON logs on stderr.
    log_level: str = "INFO"
    # Signs each audit event (HMAC-SHA256), at least 32 random characters; kept out of the database. Development
    # without one signs with a public development key.
    audit_key: SecretStr = SecretStr("")
    # Keys that signed earlier events, comma-separated: after a rotation, verification still accepts them.
    audit_previous_keys: SecretStr = SecretStr("")
    # s3://bucket/prefix to publish the audit chain's head to (the bucket needs Object Lock); unset publishes none.
    audit_anchor: str | None = None
    # How long each published head is locked in compliance mode (nobody, the account root included, can delete it).
    audit_anchor_retain_days: int = Field(default=365, ge=1)
    # How often the worker publishes the audit chain's head when GPUOPS_AUDIT_ANCHOR is set.
    audit_anchor_interval_seconds: float = Field(default=3600, gt=0)
    # A live job whose GPU utilisation stays below this percent for GPUOPS_IDLE_GPU_MINUTES is posted once per idle
    # episode in its request's thread, with what the idle share costs per hour.
    idle_gpu_threshold_percent: float = Field(default=60, gt=0, le=100)
    # How many minutes below the threshold make an idle episode (one-minute CloudWatch averages).
    idle_gpu_minutes: int = Field(default=10, ge=2, le=1440)
    # CloudWatch namespace read for EC2 and EKS jobs (DCGM metrics the CloudWatch collector publishes); SageMaker
    # jobs are read from /aws/sagemaker/TrainingJobs GPUUtilization per host.
    idle_gpu_namespace: str = Field(default="CWAgent", min_length=1)
    # The per-GPU utilisation metric (0-100) read for EC2 and EKS jobs.
    idle_gpu_metric: str = Field(default="DCGM_FI_DEV_GPU_UTIL", min_length=1)
    # The metric's dimension whose value is the job's name (the collector's configuration appends it).
    idle_gpu_dimension: str = Field(default="gpuops_job", min_length=1)
    # How many jobs' worth of "no correction" the calibration of estimated hours weighs against finished jobs.
    calibration_prior_jobs: float = Field(default=3, ge=0)
    # How long the calibration of estimated hours is reused before finished jobs are read again.
    calibration_cache_seconds: float = Field(default=300, gt=0)

    @field_validator("aws_region", "kubeconfig", "audit_anchor")
    @classmethod
    def _blank_is_unset(cls, value: str | None) -> str | None:
        return value or None

    @field_validator("audit_anchor")
    @classmethod
    def _anchor_is_s3(cls, value: str | None) -> str | None:
        if value is not None and not (value.startswith("s3://") and value[len("s3://"):].strip("/")):
            raise ValueError("GPUOPS_AUDIT_ANCHOR must look like s3://bucket/prefix")
        return value

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
        if self.env != "development":
            _check_audit_keys(self.audit_key.get_secret_value(), self.previous_audit_keys())
        if self.spend == "file" and not self.spend_file:
            raise ValueError("GPUOPS_SPEND=file needs GPUOPS_SPEND_FILE")
        return self

    def token_roles(self) -> dict[str, str]:
        """{token: role} from ``GPUOPS_API_TOKENS``."""
        return parse_tokens(self.api_tokens.get_secret_value())

    def audit_signing_key(self) -> str:
        """The key new audit events are signed with (the public development key when unset in development)."""
        return self.audit_key.get_secret_value() or DEVELOPMENT_AUDIT_KEY

    def previous_audit_keys(self) -> list[str]:
        """The keys in ``GPUOPS_AUDIT_PREVIOUS_KEYS``, which verify older events but sign nothing new."""
        return [k.strip() for k in self.audit_previous_keys.get_secret_value().split(",") if k.strip()]

    @property
    def is_sqlite(self) -> bool:
        return self.database_url.startswith("sqlite")


def _check_audit_keys(current: str, previous: list[str]) -> None:
    """Outside development every audit key must be a real secret: a guessable one lets anyone re-sign the chain."""
    if not current:
        raise ValueError("GPUOPS_AUDIT_KEY must be set outside development")
    for name, key in [("GPUOPS_AUDIT_KEY", current), *(("a key in GPUOPS_AUDIT_PREVIOUS_KEYS", k) for k in previous)]:
        if key.lower() in PLACEHOLDER_SECRETS or key == DEVELOPMENT_AUDIT_KEY or len(key) < MIN_AUDIT_KEY_CHARS:
            raise ValueError(f"{name} looks like a placeholder; use a random value of at least "
                             f"{MIN_AUDIT_KEY_CHARS} characters")


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The process's settings, read once."""
    return Settings()
