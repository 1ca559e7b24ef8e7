"""Whether AWS credentials may be configured, told from the environment, files and the host without loading boto3.

boto3's credential chain costs an import of boto3 and botocore (a fifth of a second) and, where nothing else
answers, a request to the EC2 instance metadata service (IMDS). Each source of that chain has a mark that costs a
look at an environment variable or a file, so the chain is only asked when one of them is there:

- environment: keys, a profile, a web identity token, container credentials, a metadata endpoint
  (``CREDENTIAL_ENV``);
- files: the shared credentials and config files (``AWS_SHARED_CREDENTIALS_FILE`` / ``AWS_CONFIG_FILE``, else
  ``~/.aws/credentials`` and ``~/.aws/config``: profiles, SSO, credential processes, roles) and boto's own
  (``BOTO_CONFIG``, else ``/etc/boto.cfg`` and ``~/.boto``);
- the host: an EC2 instance role is only in IMDS, so the chain is asked on a host whose firmware says it is EC2
  (the DMI vendor or BIOS ``Amazon EC2``, or a Xen ``/sys/hypervisor/uuid`` starting ``ec2``), unless
  ``AWS_EC2_METADATA_DISABLED=true`` turns IMDS off.

A host that hides its firmware from the process (no ``/sys/class/dmi``: macOS and Windows, some container
sandboxes) is not taken for EC2: there an instance role alone is not found, and ``GPUOPS_CAPACITY=aws`` /
``GPUOPS_SPEND=costexplorer`` (or ``AWS_EC2_METADATA_SERVICE_ENDPOINT``) say to use it. A mark is a reason to ask,
never an answer: the chain still decides whether the credentials are there.
"""

from __future__ import annotations

import os

__all__ = ["CREDENTIAL_ENV", "may_have_credentials", "on_ec2"]

# Every variable a source of boto3's default credential chain reads its credentials or its way to them from.
CREDENTIAL_ENV = (
    "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_SECURITY_TOKEN",
    "AWS_PROFILE", "AWS_DEFAULT_PROFILE",
    "AWS_WEB_IDENTITY_TOKEN_FILE", "AWS_ROLE_ARN",
    "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI", "AWS_CONTAINER_CREDENTIALS_FULL_URI",
    "AWS_EC2_METADATA_SERVICE_ENDPOINT",
    "AWS_CREDENTIAL_FILE",  # the oldest EC2 tools' key file
    "BOTO_CONFIG",
)
_FILES = (("AWS_SHARED_CREDENTIALS_FILE", "~/.aws/credentials"), ("AWS_CONFIG_FILE", "~/.aws/config"))
_BOTO_FILES = ("/etc/boto.cfg", "~/.boto")
_DMI = ("/sys/class/dmi/id/sys_vendor", "/sys/class/dmi/id/bios_vendor", "/sys/class/dmi/id/bios_version")
_XEN_UUID = "/sys/hypervisor/uuid"


def may_have_credentials() -> bool:
    """Whether any source of boto3's default credential chain may hold credentials here (see the module)."""
    if any(name in os.environ for name in CREDENTIAL_ENV):
        return True
    files = [os.environ.get(variable) or default for variable, default in _FILES]
    if any(os.path.isfile(os.path.expanduser(path)) for path in [*files, *_BOTO_FILES]):
        return True
    imds_off = os.environ.get("AWS_EC2_METADATA_DISABLED", "").lower() == "true"  # botocore's own reading of it
    return not imds_off and on_ec2()


def on_ec2() -> bool:
    """Whether the host's firmware says it is an EC2 instance (Nitro: DMI; Xen: the hypervisor's UUID)."""
    for path in _DMI:
        if "amazon" in _read(path).lower():
            return True
    return _read(_XEN_UUID).lower().startswith("ec2")


def _read(path: str) -> str:
    try:
        with open(path, encoding="ascii", errors="replace") as file:
            return file.read(256)
    except OSError:
        return ""
