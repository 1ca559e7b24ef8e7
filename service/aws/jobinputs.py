"""What AWS says about a job's inputs before anyone approves it: the data exists (and how big it is), the image
exists (and its digest, which the launch then pins), the role exists. Each refusal is a ``RequestError`` that names
the field and says how to fix it; AWS being unreachable is an ``UpstreamError`` (nothing is filed either way)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from botocore.exceptions import BotoCoreError, ClientError

from contract.errors import UpstreamError
from policy.errors import RequestError
from policy.jobspec import JobDraft, JobFacts
from policy.recipes import image_parts
from service.aws.clients import ClientFactory

# A dataset prefix is summed over at most this many objects (10 pages); beyond it the size is a lower bound, and the
# token estimate says so.
MAX_LISTED_OBJECTS = 10_000
_MISSING = frozenset({"404", "NoSuchKey", "NotFound", "NoSuchBucket", "RepositoryNotFoundException",
                      "ImageNotFoundException", "NoSuchEntity", "403", "AccessDenied"})


def split_s3(uri: str) -> tuple[str, str]:
    """(bucket, key) of ``s3://bucket/key``."""
    bucket, _, key = uri.removeprefix("s3://").partition("/")
    return bucket, key


def _code(exc: ClientError) -> str:
    return str(exc.response.get("Error", {}).get("Code", ""))


def _upstream(exc: ClientError | BotoCoreError, service: str, operation: str) -> UpstreamError:
    return UpstreamError(f"{service} {operation} failed: {exc}", service=service, operation=operation,
                         code="aws_error")


def _head(client: Any, bucket: str, key: str) -> tuple[int, str] | None:
    """(size, ETag) of one object, or None when there is none."""
    try:
        answer = client.head_object(Bucket=bucket, Key=key)
        return int(answer["ContentLength"]), str(answer.get("ETag", ""))
    except ClientError as exc:
        if _code(exc) in _MISSING:
            return None
        raise _upstream(exc, "s3", "HeadObject") from exc


def _listed(client: Any, bucket: str, prefix: str) -> list[tuple[str, int, str]]:
    """(key, size, ETag) of each object under ``prefix``, up to ``MAX_LISTED_OBJECTS``."""
    found: list[tuple[str, int, str]] = []
    try:
        for page in client.get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix=prefix):
            found += [(str(i["Key"]), int(i["Size"]), str(i.get("ETag", ""))) for i in page.get("Contents", [])]
            if len(found) >= MAX_LISTED_OBJECTS:
                break
    except ClientError as exc:
        if _code(exc) in _MISSING:
            return []
        raise _upstream(exc, "s3", "ListObjectsV2") from exc
    return found


def dataset_bytes(*, client: Any, uri: str, field: str = "dataset") -> tuple[int, str]:
    """(size, fingerprint) of the object at ``uri`` or of everything under it; the fingerprint changes when any
    object's content (ETag), size or name does. ``RequestError`` when there is nothing."""
    bucket, key = split_s3(uri)
    try:
        one = None if not key or key.endswith("/") else _head(client, bucket, key)
        objects = [(key, *one)] if one is not None else _listed(
            client, bucket, key if not key or key.endswith("/") else key + "/")
    except BotoCoreError as exc:
        raise _upstream(exc, "s3", "ListObjectsV2") from exc
    if not objects:
        raise RequestError(f"{field}: nothing found at {uri}; check the bucket and prefix, and that gpuops may "
                           "read it (s3:ListBucket, s3:GetObject)", code=f"{field}_missing")
    lines = "\n".join(f"{k} {size} {etag}" for k, size, etag in sorted(objects))
    return sum(size for _, size, _ in objects), hashlib.sha256(lines.encode()).hexdigest()[:16]


def image_digest(*, factory: ClientFactory, image: str) -> str:
    """The digest of ``image`` in ECR; ``RequestError`` when the repository or tag does not exist."""
    parts = image_parts(image)
    if parts is None:
        raise RequestError(f"image: {image} is not an ECR image URI", code="image_missing")
    image_id = {"imageDigest": parts["digest"]} if "digest" in parts else {"imageTag": parts["tag"]}
    ecr_client = factory.client("ecr", region=parts["region"])
    try:
        answer = ecr_client.describe_images(registryId=parts["registry"], repositoryName=parts["repo"],
                                        imageIds=[image_id])
    except ClientError as exc:
        if _code(exc) in _MISSING:
            raise RequestError(f"image: {image} was not found in ECR ({_code(exc)}); push it or fix the recipe's "
                               "image", code="image_missing") from None
        if _code(exc) == "AccessDeniedException":
            raise RequestError(f"image: gpuops may not read {image} (ecr:DescribeImages), so it cannot pin the "
                               "digest an approval covers; grant it, or use an image in your account",
                               code="image_unreadable") from None
        raise _upstream(exc, "ecr", "DescribeImages") from exc
    except BotoCoreError as exc:
        raise _upstream(exc, "ecr", "DescribeImages") from exc
    details = answer.get("imageDetails", [])
    if not details:
        raise RequestError(f"image: {image} was not found in ECR; push it or fix the recipe's image",
                           code="image_missing")
    return str(details[0]["imageDigest"])


def check_role(*, factory: ClientFactory, role_arn: str) -> None:
    """``RequestError`` when the launch role does not exist (GetRole)."""
    name = role_arn.rsplit("/", 1)[-1]
    try:
        iam_client = factory.client("iam")
        iam_client.get_role(RoleName=name)
    except ClientError as exc:
        if _code(exc) in _MISSING:
            raise RequestError(f"role_arn: the launch role {role_arn} does not exist or gpuops may not read it; "
                               "fix the team's launch.role_arn", code="role_missing") from None
        raise _upstream(exc, "iam", "GetRole") from exc
    except BotoCoreError as exc:
        raise _upstream(exc, "iam", "GetRole") from exc


@dataclass(frozen=True)
class AwsJobInputs:
    """Checks a job draft against AWS: the facts ``policy.jobspec.finish_job`` needs."""

    factory: ClientFactory
    blocks = True  # S3, ECR and IAM calls

    def facts(self, *, draft: JobDraft, role_arn: str | None, region: str) -> JobFacts:
        s3 = self.factory.client("s3", region=region)
        size, fingerprint = dataset_bytes(client=s3, uri=draft.dataset)
        if draft.recipe.source is not None:
            _require_object(s3, draft.recipe.source, "source")
        if draft.model_source is not None and draft.model_source.startswith("s3://"):
            dataset_bytes(client=s3, uri=draft.model_source, field="model")
        digest = image_digest(factory=self.factory, image=draft.image)
        if role_arn:
            check_role(factory=self.factory, role_arn=role_arn)
        return JobFacts(image_digest=digest, dataset_bytes=size, dataset_fingerprint=fingerprint)


def _require_object(client: Any, uri: str, where: str) -> None:
    bucket, key = split_s3(uri)
    try:
        found = _head(client, bucket, key) if key else None
    except BotoCoreError as exc:
        raise _upstream(exc, "s3", "HeadObject") from exc
    if found is None:
        raise RequestError(f"{where}: nothing found at {uri}; upload the recipe's source tarball there or fix the "
                           "recipe", code="source_missing")
