"""Rendered launch artifacts for EKS, HyperPod and EC2: structure, plan figures, and validity for their tools."""

from __future__ import annotations

import json
import subprocess
from typing import Any

import botocore.session
import pytest
import yaml
from botocore.validate import validate_parameters

from policy.decision import Platform, PurchaseModel
from policy.errors import RequestError
from service.launch.manifests import render_artifacts
from tests.aws.factories import make_plan, make_team


def _render(platform: Platform, **plan_overrides: Any) -> dict[str, str]:
    plan = make_plan(platform=platform, **plan_overrides)
    artifacts = render_artifacts(plan=plan, team="team-nlp", team_policy=make_team(), job_name="gpuops-req-9-r2",
                                 request_id="req_9", revision=2)
    return {a.kind: a.content for a in artifacts}


def test_eks_renders_a_pytorchjob_with_master_workers_and_gpu_limits() -> None:
    job = yaml.safe_load(_render(Platform.EKS, instance_count=4, accelerators=32)["eks.pytorchjob"])
    assert (job["apiVersion"], job["kind"]) == ("kubeflow.org/v1", "PyTorchJob")
    assert job["metadata"] == {"name": "gpuops-req-9-r2", "namespace": "training",
                               "labels": {"gpuops/team": "team-nlp", "gpuops/request": "req_9", "gpuops/revision": "2"}}
    replicas = job["spec"]["pytorchReplicaSpecs"]
    assert (replicas["Master"]["replicas"], replicas["Worker"]["replicas"]) == (1, 3)
    pod = replicas["Worker"]["template"]["spec"]
    container = pod["containers"][0]
    assert container["name"] == "pytorch"
    assert container["resources"]["limits"] == {"nvidia.com/gpu": 8}
    assert {"name": "GPUOPS_CHECKPOINT_INTERVAL_MINUTES", "value": "27"} in container["env"]
    assert not any(e["name"] == "GPUOPS_CONTEXT_PARALLEL" for e in container["env"])
    split = _render(Platform.EKS, instance_count=4, accelerators=32, context_parallel=8)["eks.pytorchjob"]
    worker = yaml.safe_load(split)["spec"]["pytorchReplicaSpecs"]["Worker"]["template"]["spec"]
    assert {"name": "GPUOPS_CONTEXT_PARALLEL", "value": "8"} in worker["containers"][0]["env"]
    fp8 = yaml.safe_load(_render(Platform.EKS, instance_count=4, accelerators=32, precision="fp8")["eks.pytorchjob"])
    assert {"name": "GPUOPS_PRECISION", "value": "fp8"} in (
        fp8["spec"]["pytorchReplicaSpecs"]["Worker"]["template"]["spec"]["containers"][0]["env"])
    assert not any(e["name"] == "GPUOPS_PRECISION" for e in container["env"])
    assert pod["nodeSelector"]["karpenter.sh/nodepool"] == "gpuops-p5-48xlarge-spot"
    assert job["spec"]["runPolicy"]["activeDeadlineSeconds"] == 15 * 3600


@pytest.mark.parametrize(("purchase", "capacity"), [(PurchaseModel.SPOT, "spot"),
                                                    (PurchaseModel.ON_DEMAND, "on-demand")])
def test_eks_nodepool_offers_exactly_the_type_and_capacity(purchase: PurchaseModel, capacity: str) -> None:
    pool = yaml.safe_load(_render(Platform.EKS, purchase_model=purchase)["eks.nodepool"])
    assert (pool["apiVersion"], pool["kind"]) == ("karpenter.sh/v1", "NodePool")
    requirements = {r["key"]: r["values"] for r in pool["spec"]["template"]["spec"]["requirements"]}
    assert requirements["node.kubernetes.io/instance-type"] == ["p5.48xlarge"]
    assert requirements["karpenter.sh/capacity-type"] == [capacity]
    assert pool["spec"]["limits"] == {"nvidia.com/gpu": 16}
    assert pool["spec"]["template"]["spec"]["nodeClassRef"]["kind"] == "EC2NodeClass"


def test_a_single_instance_job_has_no_workers_and_trainium_asks_for_neuron_devices() -> None:
    job = yaml.safe_load(_render(Platform.EKS, instance_type="trn1.32xlarge", accelerator="Trainium1",
                                 accelerators=16, instance_count=1)["eks.pytorchjob"])
    assert set(job["spec"]["pytorchReplicaSpecs"]) == {"Master"}
    limits = job["spec"]["pytorchReplicaSpecs"]["Master"]["template"]["spec"]["containers"][0]["resources"]
    assert limits == {"limits": {"aws.amazon.com/neuron": 16}}


def test_hyperpod_script_is_valid_bash_with_the_plans_nodes_and_time() -> None:
    script = _render(Platform.HYPERPOD, instance_count=4, accelerators=32, max_runtime_hours=36.5)["hyperpod.slurm"]
    subprocess.run(["bash", "-n"], input=script, text=True, check=True)
    assert "#SBATCH --nodes=4" in script
    assert "#SBATCH --time=36:30:00" in script
    assert "--nproc_per_node=8" in script and "--auto-resume=1" in script
    assert "export GPUOPS_CHECKPOINT_INTERVAL_MINUTES=27" in script


def _validate(operation: str, params: dict[str, Any]) -> None:
    model = botocore.session.get_session().get_service_model("ec2")
    validate_parameters(params, model.operation_model(operation).input_shape)


def test_ec2_launch_template_and_spot_fleet_are_valid_requests() -> None:
    rendered = _render(Platform.EC2, instance_count=2)
    template = json.loads(rendered["ec2.launch-template"])
    fleet = json.loads(rendered["ec2.spot-fleet"])
    _validate("CreateLaunchTemplate", template)
    _validate("RequestSpotFleet", fleet)
    assert template["LaunchTemplateData"]["InstanceType"] == "p5.48xlarge"
    config = fleet["SpotFleetRequestConfig"]
    assert (config["TargetCapacity"], config["OnDemandTargetCapacity"]) == (2, 0)
    assert config["IamFleetRole"] == "arn:aws:iam::123456789012:role/aws-ec2-spot-fleet-tagging-role"
    assert config["LaunchTemplateConfigs"][0]["Overrides"] == [{"SubnetId": "subnet-0abc",
                                                                 "InstanceType": "p5.48xlarge"}]


def test_on_demand_ec2_fleet_is_all_on_demand() -> None:
    fleet = json.loads(_render(Platform.EC2, purchase_model=PurchaseModel.ON_DEMAND)["ec2.spot-fleet"])
    assert fleet["SpotFleetRequestConfig"]["OnDemandTargetCapacity"] == 2


def test_sagemaker_has_no_rendered_artifacts_and_a_missing_image_is_refused() -> None:
    assert _render(Platform.SAGEMAKER) == {}
    with pytest.raises(RequestError, match="needs image"):
        render_artifacts(plan=make_plan(platform=Platform.EKS), team="team-nlp", team_policy=make_team(image=None),
                         job_name="j", request_id="r", revision=1)


def test_a_capacity_block_bought_for_the_request_is_where_ec2_and_eks_instances_run() -> None:
    plan = make_plan(platform=Platform.EC2, instance_count=4, purchase_model=PurchaseModel.ON_DEMAND)
    artifacts = {a.kind: a.content for a in render_artifacts(
        plan=plan, team="team-nlp", team_policy=make_team(), job_name="gpuops-req-9-r2", request_id="req_9",
        revision=2, reservation="cr-0123456789abcdef0")}
    template = json.loads(artifacts["ec2.launch-template"])
    _validate("CreateLaunchTemplate", template)
    data = template["LaunchTemplateData"]
    assert data["InstanceMarketOptions"] == {"MarketType": "capacity-block"}
    assert data["CapacityReservationSpecification"] == {
        "CapacityReservationTarget": {"CapacityReservationId": "cr-0123456789abcdef0"}}
    run = json.loads(artifacts["ec2.run-instances"])
    _validate("RunInstances", run)
    assert (run["MinCount"], run["MaxCount"]) == (4, 4) and "ec2.spot-fleet" not in artifacts
    eks = make_plan(platform=Platform.EKS, purchase_model=PurchaseModel.ON_DEMAND)
    pool = yaml.safe_load({a.kind: a.content for a in render_artifacts(
        plan=eks, team="team-nlp", team_policy=make_team(), job_name="gpuops-req-9-r2", request_id="req_9",
        revision=2, reservation="cr-0123456789abcdef0")}["eks.nodepool"])
    requirements = {r["key"]: r["values"] for r in pool["spec"]["template"]["spec"]["requirements"]}
    assert requirements["karpenter.sh/capacity-type"] == ["reserved"]
    assert requirements["karpenter.k8s.aws/capacity-reservation-id"] == ["cr-0123456789abcdef0"]


def test_a_cost_center_is_a_tag_on_ec2_instances_and_a_label_on_eks_pods() -> None:
    def rendered(platform: Platform) -> dict[str, str]:
        plan = make_plan(platform=platform, purchase_model=PurchaseModel.ON_DEMAND)
        return {a.kind: a.content for a in render_artifacts(
            plan=plan, team="team-nlp", team_policy=make_team(), job_name="gpuops-req-9-r2", request_id="req_9",
            revision=2, tags={"CostCenter": "ML-4411", "gpuops:team": "someone-else"})}

    template = json.loads(rendered(Platform.EC2)["ec2.launch-template"])
    _validate("CreateLaunchTemplate", template)
    tags = template["LaunchTemplateData"]["TagSpecifications"][0]["Tags"]
    assert {"Key": "CostCenter", "Value": "ML-4411"} in tags
    assert [t["Value"] for t in tags if t["Key"] == "gpuops:team"] == ["team-nlp"]  # gpuops' own tag stands
    job = yaml.safe_load(rendered(Platform.EKS)["eks.pytorchjob"])
    labels = job["spec"]["pytorchReplicaSpecs"]["Master"]["template"]["metadata"]["labels"]
    assert labels["CostCenter"] == "ML-4411" and labels["gpuops/team"] == "team-nlp"
