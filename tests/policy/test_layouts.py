"""A type's layouts and their speed: remembered by the figures they are made of, so a model shares those another
model worked out, and worked out with the scaling module's arithmetic to the bit."""

from __future__ import annotations

import pytest

from policy.candidates import (
    FALLBACK_INTER_NODE_GBPS,
    FALLBACK_INTRA_NODE_GBYTEPS,
    REPLICA_MEMORY_SHARE,
    Profile,
    job_efficiency,
    profile,
)
from policy.catalog import Catalog, ScalingCurve, load_catalog, scaling_efficiency
from policy.config import default_policy
from policy.estimate import GIB, Workload, workload
from policy.request import Task
from policy.scaling import equivalent_accelerators
from tests.policy.test_recent_work import afresh, decided

# Models whose layouts on many types are those of a model decided before them (a QLoRA after a LoRA of one size, a
# small model after another one accelerator holds), and others with counts, floors, ceilings and sweeps of their own.
ONE_AFTER_ANOTHER = [
    "lora 13B on 1B tokens", "qlora 13B on 1B tokens", "fine-tune 350M on 1B tokens", "lora 350M on 1B tokens",
    "dpo 350M on 100M tokens", "pretrain 3B on 60B tokens", "continued pretraining of 3B on 20B tokens",
    "sweep of 20 trials on 350M", "sweep of 5 trials on 13B", "fine-tune 7B on 16 GPUs",
    "fine-tune 7B on at least 3 nodes", "lora 70B on 1B tokens with at most 32 GPUs",
    "fine-tune 8B on 2B tokens on 4 nodes", "pretrain 1.5B on 30B tokens by Friday",
]


def test_a_model_decided_after_others_plans_as_one_worked_out_afresh() -> None:
    shared = afresh()
    for text in ONE_AFTER_ANOTHER:
        assert decided(text, shared).model_dump() == decided(text, afresh()).model_dump(), text


def _reference(prof: Profile, work: Workload, curve: ScalingCurve, count: int) -> float:
    """Parallel efficiency composed of ``equivalent_accelerators`` and ``scaling_efficiency`` (docs/design.md)."""
    spec = prof.spec
    accelerators = count * spec.accelerator_count
    if accelerators == 1:
        return 1.0  # one accelerator exchanges nothing
    if curve.reference_batch_tokens is None or curve.reference_tflops is None:
        return scaling_efficiency(curve, accelerators)
    throughput = prof.flops_per_instance / spec.accelerator_count / 1e12 / curve.reference_tflops
    assert curve.reference_intra_node_gbyteps is not None and curve.reference_inter_node_gbps_per_accelerator
    intra = curve.reference_intra_node_gbyteps / (spec.intra_node_gbyteps or FALLBACK_INTRA_NODE_GBYTEPS)
    node = equivalent_accelerators(spec.accelerator_count, replica=1, batch_ratio=1.0, throughput_ratio=throughput,
                                   bandwidth_ratio=intra)
    if count == 1:
        return scaling_efficiency(curve, max(1.0, node * accelerators / spec.accelerator_count))
    gbps = spec.inter_node_gbps or spec.network_gbps or FALLBACK_INTER_NODE_GBPS
    inter = curve.reference_inter_node_gbps_per_accelerator / (gbps / spec.accelerator_count)
    memory = (spec.accelerator_memory_gib or prof.accel.memory_gib or 1.0) * GIB * REPLICA_MEMORY_SHARE
    equivalent = equivalent_accelerators(accelerators, replica=max(1.0, work.sharded_bytes / memory),
                                         batch_ratio=curve.reference_batch_tokens / work.batch_tokens,
                                         throughput_ratio=throughput, bandwidth_ratio=inter)
    return scaling_efficiency(curve, max(1.0, equivalent, node))


def _curves(catalog: Catalog) -> list[Catalog]:
    """The catalog as shipped, with its curve held past 24 accelerators, and with no reference job."""
    held = catalog.scaling.model_copy(update={"extrapolate_to": 24})
    bare = catalog.scaling.model_copy(update={"reference_batch_tokens": None, "reference_tflops": None})
    return [catalog, catalog.model_copy(update={"scaling": held}), catalog.model_copy(update={"scaling": bare})]


@pytest.mark.parametrize("params", [125_000_000, 7_000_000_000, 70_000_000_000, 405_000_000_000])
def test_a_jobs_efficiency_is_the_scaling_modules_to_the_bit(params: int) -> None:
    settings = default_policy().estimate
    works = [workload(task=task, params=params, tokens=params * 20, trials=1, seq_len=4096)
             for task in (Task.PRETRAIN, Task.FINE_TUNE, Task.QLORA)]
    for catalog in _curves(load_catalog()):
        for price in {p.instance_type: p for p in catalog.prices}.values():
            for work in works:
                prof = profile(price, catalog=catalog, work=work, settings=settings, outside=False)
                if isinstance(prof, str):
                    continue
                for count in (1, 2, 3, 4, 8, 16, 64, 256):
                    assert job_efficiency(prof, work, catalog, count) == _reference(prof, work, catalog.scaling,
                                                                                    count), (price, count)
