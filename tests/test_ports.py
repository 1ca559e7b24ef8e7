"""The loopback ports handed to servers the suite starts: never one the kernel can give another socket meanwhile,
never the same one to two pytest workers."""

from __future__ import annotations

import socket

import pytest

from bench.harness import HOST, PORTS_EACH, PORTS_FROM, PORTS_TO, free_port


def _ephemeral_range() -> tuple[int, int]:
    with open("/proc/sys/net/ipv4/ip_local_port_range", encoding="ascii") as handle:
        low, high = handle.read().split()
    return int(low), int(high)


def test_a_port_handed_out_lies_below_the_kernels_own_range() -> None:
    low, _ = _ephemeral_range()
    assert PORTS_TO <= low
    assert all(PORTS_FROM <= free_port() < PORTS_TO for _ in range(5))


def test_two_workers_are_handed_ports_of_their_own(monkeypatch: pytest.MonkeyPatch) -> None:
    handed: dict[str, set[int]] = {}
    for worker in ("gw0", "gw1"):
        monkeypatch.setenv("PYTEST_XDIST_WORKER", worker)
        handed[worker] = {free_port() for _ in range(PORTS_EACH)}
    assert handed["gw0"].isdisjoint(handed["gw1"])


def test_a_port_something_listens_on_is_passed_over(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw7")
    port = free_port()
    with socket.socket() as taken:
        taken.bind((HOST, port))
        taken.listen()
        assert port not in {free_port() for _ in range(PORTS_EACH)}
