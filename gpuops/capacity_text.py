"""The account's capacity for one type and count as plain text (``gpuops capacity show``)."""

from __future__ import annotations

from policy.capacity import SPOT_SCORE_MAX, CapacityStatus, CapacityView, check, summary_line
from policy.catalog import InstanceSpec

PLATFORMS = (("sagemaker", "SageMaker training"), ("ec2", "EC2 / EKS"))


def render_account(view: CapacityView, *, spec: InstanceSpec, count: int, regions: list[str]) -> str:
    """Per region and platform, on-demand and spot: the quota line and whether ``count`` instances fit."""
    head = f"{count}× {spec.instance_type} ({count * spec.vcpus} vCPU)"
    if not view.known:
        return f"{head}: capacity unknown ({view.reason})"
    lines = [f"{head} · read {view.as_of:%Y-%m-%d %H:%M} UTC" if view.as_of else head]
    for region in regions:
        lines.append(f"{region}:")
        for platform, name in PLATFORMS:
            for purchase in ("on-demand", "spot"):
                result = check(view, instance_type=spec.instance_type, family=spec.family, vcpus=spec.vcpus,
                               count=count, platform=platform, purchase=purchase, region=region)
                mark = {CapacityStatus.FITS: "fits", CapacityStatus.SHORT: "SHORT",
                        CapacityStatus.UNKNOWN: "unknown"}[result.status]
                quota = f" — {result.quota_name}" if result.quota_name else ""
                lines.append(f"  {name}, {purchase}: {mark} · "
                             f"{summary_line(result, purchase=purchase, region=region)}{quota}")
        score = view.score(spec.instance_type, region)
        if score is None:
            lines.append("  spot placement score: not read")
        else:
            lines.append(f"  spot placement score: {score.score}/{SPOT_SCORE_MAX} for {score.count} instance(s)")
    if view.reason:
        lines.append(f"not read: {view.reason}")
    return "\n".join(lines)
