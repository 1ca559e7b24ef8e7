"""deploy/prometheus-alerts.yaml: well-formed rules on the metric names gpuops exports, each explained."""

from __future__ import annotations

import pathlib
import re
import shutil
import subprocess
from typing import Any

import pytest
import yaml

from tests.conftest import require_tool
from tests.deploy.conftest import DEPLOY, ROOT

RULES_FILE = DEPLOY / "prometheus-alerts.yaml"
RULES: dict[str, Any] = yaml.safe_load(RULES_FILE.read_text(encoding="utf-8"))
ALERTS = [rule for group in RULES["groups"] for rule in group["rules"]]

# The contract with the code that exports the metrics: rename one on either side and this fails.
EXPORTED = {
    "gpuops_http_requests_total": {"method", "route", "status"},
    "gpuops_http_request_duration_seconds_bucket": {"method", "route", "le"},
    "gpuops_launch_failures_total": {"platform", "reason"},
    "gpuops_costexplorer_dollars_total": set(),
    "gpuops_events_feed_lag_seconds": set(),
    "gpuops_digest_runs_total": {"outcome"},
    "gpuops_spend_status": {"team", "status"},
    "gpuops_cache_degraded": set(),
    "up": {"job", "instance"},
}
# Alerts every deployment needs, by the signal they watch.
REQUIRED = {
    "gpuops_http_requests_total", "gpuops_http_request_duration_seconds_bucket", "gpuops_launch_failures_total",
    "gpuops_costexplorer_dollars_total", "gpuops_events_feed_lag_seconds", "gpuops_digest_runs_total",
    "gpuops_spend_status", "gpuops_cache_degraded",
}
METRIC = re.compile(r"\b(gpuops_[a-z0-9_]+|up)\b(?:\{([^}]*)\})?")
DECLARATION = re.compile(
    r"\b(Counter|Gauge|Histogram)\(\s*\"(gpuops_[a-z0-9_]+)\"\s*,\s*\"[^\"]*\"\s*(?:,\s*\[([^\]]*)\])?", re.S
)


def declared_metrics() -> dict[str, set[str]]:
    """Series names (as Prometheus sees them) and labels of every metric declared in bot/ and service/."""
    found: dict[str, set[str]] = {}
    for path in [*(ROOT / "bot").rglob("*.py"), *(ROOT / "service").rglob("*.py")]:
        for kind, name, labels in DECLARATION.findall(path.read_text(encoding="utf-8")):
            label_set = set(re.findall(r"\"([a-z_]+)\"", labels))
            if kind == "Counter":
                found[name.removesuffix("_total") + "_total"] = label_set
            elif kind == "Histogram":
                found[name + "_bucket"] = label_set | {"le"}
            else:
                found[name] = label_set
    return found


def _metrics(expr: str) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for name, selector in METRIC.findall(expr):
        labels = set(re.findall(r"([a-z_]+)\s*(?:=~|!~|!=|=)", selector or ""))
        found.setdefault(name, set()).update(labels)
    return found


def test_rule_groups_are_well_formed() -> None:
    names = [group["name"] for group in RULES["groups"]]
    assert len(names) == len(set(names))
    alerts = [a["alert"] for a in ALERTS]
    assert len(alerts) == len(set(alerts))
    for alert in ALERTS:
        assert set(alert) <= {"alert", "expr", "for", "labels", "annotations"}, alert["alert"]
        assert alert["labels"]["severity"] in {"warning", "critical"}
        assert alert["expr"].count("(") == alert["expr"].count(")"), alert["alert"]


@pytest.mark.parametrize("alert", ALERTS, ids=[a["alert"] for a in ALERTS])
def test_each_alert_says_what_it_means_and_what_to_do(alert: dict[str, Any]) -> None:
    annotations = alert["annotations"]
    assert annotations["summary"].strip()
    assert len(annotations["description"].split()) >= 25, "say what it means and what to do"


@pytest.mark.parametrize("alert", ALERTS, ids=[a["alert"] for a in ALERTS])
def test_alerts_use_only_exported_metrics_and_labels(alert: dict[str, Any]) -> None:
    for name, labels in _metrics(alert["expr"]).items():
        assert name in EXPORTED, f"{alert['alert']} reads {name}, which nothing exports"
        assert labels <= EXPORTED[name], f"{alert['alert']}: {name} has no label {labels - EXPORTED[name]}"


@pytest.mark.parametrize("name", sorted(REQUIRED))
def test_the_code_exports_the_metric_with_these_labels(name: str) -> None:
    declared = declared_metrics()
    assert name in declared, f"{name} is read by the alert rules but not declared in bot/ or service/"
    assert declared[name] == EXPORTED[name]


def test_every_signal_is_watched() -> None:
    used = {name for alert in ALERTS for name in _metrics(alert["expr"])}
    assert used >= REQUIRED


def test_the_header_documents_every_metric_the_rules_read() -> None:
    header = RULES_FILE.read_text(encoding="utf-8").split("\ngroups:")[0]
    for name in REQUIRED:
        assert name.removesuffix("_bucket") in header, name


def _promtool() -> str:
    return require_tool("promtool", package="prometheus")


def test_promtool_accepts_the_rules() -> None:
    checked = subprocess.run(
        [_promtool(), "check", "rules", str(RULES_FILE)], capture_output=True, text=True, timeout=60, check=False
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_alerts_fire_when_and_only_when_the_unit_tests_say(tmp_path: pathlib.Path) -> None:
    """The promtool unit tests pin labels and timing; annotations are dropped so wording can change freely."""
    promtool = _promtool()
    stripped = {"groups": [{**g, "rules": [{k: v for k, v in r.items() if k != "annotations"} for r in g["rules"]]}
                           for g in RULES["groups"]]}
    (tmp_path / RULES_FILE.name).write_text(yaml.safe_dump(stripped), encoding="utf-8")
    tests = tmp_path / "prometheus-alerts.test.yaml"
    shutil.copy(DEPLOY / "prometheus-alerts.test.yaml", tests)
    ran = subprocess.run(
        [promtool, "test", "rules", str(tests)], capture_output=True, text=True, timeout=120, check=False, cwd=tmp_path
    )
    assert ran.returncode == 0, ran.stdout + ran.stderr
    tested = set(re.findall(r"alertname: (\w+)", tests.read_text(encoding="utf-8")))
    assert tested == {a["alert"] for a in ALERTS}, "every alert has a unit test"
