"""Whether AWS credentials are configured: boto3's chain decides, asked only where one of its sources may answer."""

from __future__ import annotations

from pathlib import Path

import pytest

from service.aws import credentials
from service.aws.clients import ClientFactory, credentials_configured
from tests.aws.conftest import dummy_session

KEYS = "[default]\naws_access_key_id = testing\naws_secret_access_key = testing\n"


@pytest.fixture(autouse=True)
def _nowhere(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No mark anywhere: an empty home, no credential files, a host that is not EC2."""
    monkeypatch.setenv("HOME", str(tmp_path))
    for name in ("AWS_CONFIG_FILE", "AWS_SHARED_CREDENTIALS_FILE", "AWS_EC2_METADATA_DISABLED"):
        monkeypatch.delenv(name, raising=False)
    for name in credentials.CREDENTIAL_ENV:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(credentials, "_BOTO_FILES", ())
    vendor = tmp_path / "sys_vendor"
    vendor.write_text("QEMU\n")
    monkeypatch.setattr(credentials, "_DMI", (str(vendor),))
    monkeypatch.setattr(credentials, "_XEN_UUID", str(tmp_path / "no-hypervisor"))


def test_without_any_mark_the_answer_is_no_and_boto3_is_not_asked() -> None:
    factory = ClientFactory()
    assert not credentials.may_have_credentials()
    assert not credentials_configured(factory=factory)
    assert factory.session is None  # no session built: the chain (and the metadata service) was never asked


def test_keys_in_the_environment_are_found(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    assert credentials_configured(factory=ClientFactory())


@pytest.mark.parametrize("where", ["AWS_SHARED_CREDENTIALS_FILE", "AWS_CONFIG_FILE", "~/.aws/credentials"])
def test_keys_in_a_credentials_or_config_file_are_found(where: str, monkeypatch: pytest.MonkeyPatch,
                                                       tmp_path: Path) -> None:
    path = tmp_path / ".aws" / "credentials" if where.startswith("~") else tmp_path / "aws-file"
    path.parent.mkdir(exist_ok=True)
    path.write_text(KEYS if where != "AWS_CONFIG_FILE" else KEYS.replace("[default]", "[default]\nregion = x"))
    if not where.startswith("~"):
        monkeypatch.setenv(where, str(path))
    assert credentials_configured(factory=ClientFactory())


def test_a_mark_is_a_reason_to_ask_not_an_answer(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    config = tmp_path / "config"
    config.write_text("[default]\nregion = eu-west-1\n")
    monkeypatch.setenv("AWS_CONFIG_FILE", str(config))
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")
    factory = ClientFactory()
    assert credentials.may_have_credentials()
    assert not credentials_configured(factory=factory)
    assert factory.session is not None


@pytest.mark.parametrize(("vendor", "imds", "expected"), [
    ("Amazon EC2\n", None, True),
    ("Amazon EC2\n", "true", False),  # IMDS turned off: no instance role to find
    ("Xen\n", None, False),
])
def test_an_instance_role_is_looked_for_only_on_ec2(vendor: str, imds: str | None, expected: bool,
                                                    monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    (tmp_path / "sys_vendor").write_text(vendor)
    if imds is not None:
        monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", imds)
    assert credentials.may_have_credentials() is expected


def test_an_older_ec2_host_is_told_by_its_xen_uuid(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    uuid = tmp_path / "uuid"
    uuid.write_text("ec2e1916-9099-7caf-fd21-012345abcdef\n")
    monkeypatch.setattr(credentials, "_XEN_UUID", str(uuid))
    assert credentials.on_ec2()


def test_a_session_given_to_the_factory_is_always_asked() -> None:
    assert credentials_configured(factory=ClientFactory(session=dummy_session()))
