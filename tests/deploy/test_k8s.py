"""The Kubernetes manifests are valid against the Kubernetes JSON schemas and fit together.

Validation is offline: ``kubernetes-validate`` ships the strict JSON schemas generated from each Kubernetes release's
OpenAPI spec (unknown fields rejected, required fields enforced), so a typo such as ``readinesProbe`` fails here, not
at ``kubectl apply``.
"""

from __future__ import annotations

import subprocess
from typing import Any

import pytest
import yaml
from kubernetes_validate import utils as kv

from policy.config import parse_policy
from tests.conftest import require_tool
from tests.deploy.conftest import K8S, by_kind, k8s_objects, load_all

# The oldest release still in EKS standard support when this was written, and the newest schemas shipped.
K8S_VERSIONS = ["1.31", kv.latest_version()]
OBJECTS = k8s_objects()
WORKLOADS = {**by_kind("Deployment"), **by_kind("Job")}


def _id(item: tuple[str, dict[str, Any]]) -> str:
    return f"{item[0]}:{item[1]['kind']}/{item[1]['metadata']['name']}"


def _pod_spec(obj: dict[str, Any]) -> dict[str, Any]:
    spec: dict[str, Any] = obj["spec"]["template"]["spec"]
    return spec


@pytest.mark.parametrize("version", K8S_VERSIONS)
@pytest.mark.parametrize("item", OBJECTS, ids=[_id(o) for o in OBJECTS])
def test_object_validates_against_the_strict_schema(item: tuple[str, dict[str, Any]], version: str) -> None:
    _, obj = item
    try:
        kv.validate(obj, version, strict=True)
    except kv.ValidationError as exc:
        where = ".".join(str(p) for p in exc.absolute_path)
        pytest.fail(f"{_id(item)} against Kubernetes {version}: {where}: {exc.message}", pytrace=False)


@pytest.mark.parametrize(
    ("broken", "expected"),
    [
        ({"spec": {"template": {"spec": {"containers": [{"name": "x", "image": "i", "readinesProbe": {}}]}}}},
         "readinesProbe"),
        ({"spec": {"template": {"spec": {"containers": [{"image": "i"}]}}}}, "'name' is a required property"),
    ],
)
def test_the_validator_rejects_unknown_and_missing_fields(broken: dict[str, Any], expected: str) -> None:
    """Guards the test above against a validator that accepts anything."""
    deployment = {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "x"}, **broken}
    deployment["spec"]["selector"] = {"matchLabels": {"a": "b"}}
    with pytest.raises(kv.ValidationError) as caught:
        kv.validate(deployment, K8S_VERSIONS[-1], strict=True)
    assert expected in caught.value.message


def test_kustomization_lists_exactly_the_manifests() -> None:
    kustomization = yaml.safe_load((K8S / "kustomization.yaml").read_text(encoding="utf-8"))
    on_disk = sorted(p.name for p in K8S.glob("*.yaml") if p.name != "kustomization.yaml")
    assert sorted(kustomization["resources"]) == on_disk
    assert len(set(kustomization["resources"])) == len(kustomization["resources"])
    images = {image["name"] for image in kustomization["images"]}
    used = {c["image"].rsplit(":", 1)[0] for w in WORKLOADS.values() for c in _pod_spec(w)["containers"]}
    assert used <= images, "every workload image is one kustomization.yaml can retag"


def test_kustomize_builds_every_object() -> None:
    kubectl = require_tool("kubectl", package="kubernetes-client")
    built = subprocess.run([kubectl, "kustomize", str(K8S)], capture_output=True, text=True, timeout=120,
                           check=False)
    assert built.returncode == 0, built.stderr
    names = sorted((d["kind"], d["metadata"]["name"]) for d in yaml.safe_load_all(built.stdout) if d)
    assert names == sorted((o["kind"], o["metadata"]["name"]) for _, o in OBJECTS)


def test_everything_is_in_the_gpuops_namespace() -> None:
    for _, obj in OBJECTS:
        if obj["kind"] != "Namespace":
            assert obj["metadata"].get("namespace") == "gpuops", _id(("", obj))


def test_deployments_service_bot_and_worker_exist_with_their_commands() -> None:
    deployments = by_kind("Deployment")
    commands = {name: _pod_spec(d)["containers"][0]["args"][0] for name, d in deployments.items()}
    assert commands == {"gpuops-service": "service", "gpuops-worker": "worker", "gpuops-bot": "bot",
                        "gpuops-bot-feed": "bot"}
    assert _pod_spec(by_kind("Job")["gpuops-migrate"])["containers"][0]["args"] == ["db", "upgrade"]


@pytest.mark.parametrize("name", sorted(WORKLOADS))
def test_workload_runs_locked_down(name: str) -> None:
    pod = _pod_spec(WORKLOADS[name])
    assert pod["securityContext"]["runAsNonRoot"] is True
    assert pod["securityContext"]["runAsUser"] != 0
    assert pod["securityContext"]["seccompProfile"]["type"] == "RuntimeDefault"
    assert pod["automountServiceAccountToken"] is False
    for container in pod["containers"]:
        context = container["securityContext"]
        assert context["readOnlyRootFilesystem"] is True
        assert context["allowPrivilegeEscalation"] is False
        assert context["capabilities"]["drop"] == ["ALL"]
        assert {"requests", "limits"} <= container["resources"].keys()
        mounts = {m["mountPath"] for m in container.get("volumeMounts", [])}
        assert "/tmp" in mounts, "a read-only root needs a writable /tmp"


@pytest.mark.parametrize("name", sorted(by_kind("Deployment")))
def test_deployment_probes_hit_the_port_it_listens_on(name: str) -> None:
    deployment = by_kind("Deployment")[name]
    assert deployment["spec"]["selector"]["matchLabels"].items() <= deployment["spec"]["template"]["metadata"][
        "labels"
    ].items()
    container = _pod_spec(deployment)["containers"][0]
    args = container["args"]
    port = int(args[args.index("--port") + 1])
    assert [p["containerPort"] for p in container["ports"] if p["name"] == "http"] == [port]
    for probe in ("livenessProbe", "readinessProbe"):
        assert container[probe]["httpGet"]["port"] == "http"
    assert container["livenessProbe"]["httpGet"]["path"] == "/healthz"
    annotations = deployment["spec"]["template"]["metadata"]["annotations"]
    assert annotations["prometheus.io/port"] == str(port)


def test_service_readiness_is_readyz_and_liveness_healthz() -> None:
    container = _pod_spec(by_kind("Deployment")["gpuops-service"])["containers"][0]
    assert container["livenessProbe"]["httpGet"]["path"] == "/healthz"
    assert container["readinessProbe"]["httpGet"]["path"] == "/readyz"


def test_services_select_pods_that_exist() -> None:
    pod_labels = [d["spec"]["template"]["metadata"]["labels"] for d in by_kind("Deployment").values()]
    for name, service in by_kind("Service").items():
        selector = service["spec"]["selector"].items()
        assert sum(selector <= labels.items() for labels in pod_labels) == 1, name
    assert set(by_kind("Service")) == {"gpuops-service", "gpuops-bot"}


def test_pdb_and_hpa_target_the_service_deployment() -> None:
    service = by_kind("Deployment")["gpuops-service"]
    pdb = by_kind("PodDisruptionBudget")["gpuops-service"]
    assert pdb["spec"]["selector"]["matchLabels"] == service["spec"]["selector"]["matchLabels"]
    assert pdb["spec"]["minAvailable"] < by_kind("HorizontalPodAutoscaler")["gpuops-service"]["spec"]["minReplicas"]
    hpa = by_kind("HorizontalPodAutoscaler")["gpuops-service"]
    assert hpa["apiVersion"] == "autoscaling/v2"
    assert hpa["spec"]["scaleTargetRef"] == {"apiVersion": "apps/v1", "kind": "Deployment", "name": "gpuops-service"}


def test_feed_follower_is_a_single_replica_that_never_overlaps() -> None:
    feed = by_kind("Deployment")["gpuops-bot-feed"]
    assert feed["spec"]["replicas"] == 1
    assert feed["spec"]["strategy"]["type"] == "Recreate"
    env = {e["name"]: e["value"] for e in _pod_spec(feed)["containers"][0]["env"]}
    assert env["GPUOPS_BOT_FEED"] == "true"
    bot_env = {e["name"]: e["value"] for e in _pod_spec(by_kind("Deployment")["gpuops-bot"])["containers"][0]["env"]}
    assert bot_env["GPUOPS_BOT_FEED"] == "false"


def test_only_the_service_and_worker_assume_the_aws_role() -> None:
    accounts = by_kind("ServiceAccount")
    with_role = {name for name, sa in accounts.items() if "eks.amazonaws.com/role-arn" in sa["metadata"].get(
        "annotations", {})}
    assert with_role == {"gpuops-service"}
    users = {name: _pod_spec(w)["serviceAccountName"] for name, w in WORKLOADS.items()}
    assert {name for name, sa in users.items() if sa in with_role} == {"gpuops-service", "gpuops-worker"}
    assert set(users.values()) <= set(accounts)


def test_configmap_and_secret_references_resolve() -> None:
    config_maps, secrets = by_kind("ConfigMap"), by_kind("Secret")
    for name, workload in WORKLOADS.items():
        pod = _pod_spec(workload)
        for container in pod["containers"]:
            for source in container.get("envFrom", []):
                if "configMapRef" in source:
                    assert source["configMapRef"]["name"] in config_maps, name
                if "secretRef" in source:
                    assert source["secretRef"]["name"] in secrets, name
        for volume in pod.get("volumes", []):
            if "configMap" in volume:
                assert volume["configMap"]["name"] in config_maps, name


def test_policy_file_is_mounted_where_gpuops_policy_points() -> None:
    config = by_kind("ConfigMap")["gpuops-config"]["data"]
    path = config["GPUOPS_POLICY"]
    directory, _, filename = path.rpartition("/")
    for name in ("gpuops-service", "gpuops-worker"):
        pod = _pod_spec(by_kind("Deployment")[name])
        mount = next(m for m in pod["containers"][0]["volumeMounts"] if m["mountPath"] == directory)
        volume = next(v for v in pod["volumes"] if v["name"] == mount["name"])
        assert [item["path"] for item in volume["configMap"]["items"]] == [filename]
        assert volume["configMap"]["name"] == "gpuops-policy"


def test_policy_in_the_configmap_validates() -> None:
    text = by_kind("ConfigMap")["gpuops-policy"]["data"]["policy.yaml"]
    policy = parse_policy(text, source="deploy/k8s/configmap.yaml gpuops-policy")
    assert policy.default_team in policy.teams


def test_secrets_hold_placeholders_only() -> None:
    for name, secret in by_kind("Secret").items():
        assert "data" not in secret, f"{name}: use stringData so the placeholders stay readable"
        for key, value in secret["stringData"].items():
            assert "change-me" in value, f"{name}.{key} must be a change-me placeholder"


def test_settings_never_go_into_a_secret_and_secrets_never_into_the_configmap() -> None:
    config = by_kind("ConfigMap")["gpuops-config"]["data"]
    secret_keys = {k for s in by_kind("Secret").values() for k in s["stringData"]}
    assert not secret_keys & config.keys()
    assert not {k for k in config if any(w in k for w in ("TOKEN", "SECRET", "PASSWORD", "DATABASE_URL"))}


def test_bot_gets_no_database_credentials() -> None:
    bot_secret = by_kind("Secret")["gpuops-bot"]["stringData"]
    assert "DATABASE_URL" not in bot_secret
    for name in ("gpuops-bot", "gpuops-bot-feed"):
        refs = {s["secretRef"]["name"] for s in _pod_spec(by_kind("Deployment")[name])["containers"][0]["envFrom"]
                if "secretRef" in s}
        assert refs == {"gpuops-bot"}


def _policy(name: str) -> dict[str, Any]:
    return by_kind("NetworkPolicy")[name]["spec"]


def _peers_allowed(component: str, direction: str) -> list[dict[str, Any]]:
    """Every rule of ``direction`` (ingress/egress) that applies to pods of ``component``."""
    rules: list[dict[str, Any]] = []
    labels = {"app.kubernetes.io/name": "gpuops", "app.kubernetes.io/component": component}
    for policy in by_kind("NetworkPolicy").values():
        spec = policy["spec"]
        selector = spec["podSelector"]
        matches = selector.get("matchLabels", {}).items() <= labels.items() and all(
            labels.get(e["key"]) in e["values"] for e in selector.get("matchExpressions", [])
        )
        if matches:
            rules.extend(spec.get(direction, []))
    return rules


def test_network_policy_denies_by_default() -> None:
    deny = _policy("default-deny")
    assert deny["podSelector"] == {}
    assert sorted(deny["policyTypes"]) == ["Egress", "Ingress"]
    assert "ingress" not in deny and "egress" not in deny


def test_only_bot_admins_and_monitoring_reach_the_service() -> None:
    sources = [peer for rule in _peers_allowed("service", "ingress") for peer in rule["from"]]
    pods = [p["podSelector"]["matchLabels"] for p in sources if "podSelector" in p and "namespaceSelector" not in p]
    namespaces = [p["namespaceSelector"]["matchLabels"] for p in sources if "namespaceSelector" in p]
    assert {labels.get("app.kubernetes.io/component") for labels in pods} == {"bot", "bot-feed", None}
    assert {"gpuops.io/admin": "true"} in pods
    assert {"gpuops.io/admin": "true"} in namespaces
    assert not any("ipBlock" in p for p in sources), "no address range may reach the API"
    assert {p["port"] for rule in _peers_allowed("service", "ingress") for p in rule["ports"]} == {8000}
    assert _peers_allowed("worker", "ingress") and all(
        p["namespaceSelector"]["matchLabels"] == {"kubernetes.io/metadata.name": "monitoring"}
        for rule in _peers_allowed("worker", "ingress")
        for p in rule["from"]
    )


@pytest.mark.parametrize(
    ("component", "ports"),
    [
        ("service", {53, 443, 5432, 6379}),
        ("worker", {53, 443, 5432, 6379}),
        ("bot", {53, 443, 6379, 8000}),
        ("bot-feed", {53, 443, 6379, 8000}),
        ("migrate", {53, 5432}),
    ],
)
def test_egress_is_limited_to_what_each_process_needs(component: str, ports: set[int]) -> None:
    allowed = {p["port"] for rule in _peers_allowed(component, "egress") for p in rule["ports"]}
    assert allowed == ports


def test_namespace_enforces_the_restricted_pod_security_level() -> None:
    (namespace,) = by_kind("Namespace").values()
    assert namespace["metadata"]["labels"]["pod-security.kubernetes.io/enforce"] == "restricted"


def test_manifest_files_are_single_purpose_yaml() -> None:
    for path in sorted(K8S.glob("*.yaml")):
        docs = load_all(path)
        assert docs, path.name
        assert all(isinstance(d, dict) and {"apiVersion", "kind"} <= d.keys() for d in docs), path.name
