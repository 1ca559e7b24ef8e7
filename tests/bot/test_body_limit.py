"""Bodies over the limit are refused before they are read, so an unsigned flood cannot grow the bot's memory."""

from __future__ import annotations

import re
import socket
import threading
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest

from tests.bot.factories import REQUESTER
from tests.bot.fake_service import TOKEN, FakeService
from tests.bot.fake_slack import FakeSlack
from tests.bot.harness import BotHarness

MIB = 1024 * 1024
CHUNK = 64 * 1024


@pytest.fixture(params=["h11", "httptools"])
def served(request: pytest.FixtureRequest, slack: FakeSlack, service: FakeService) -> Iterator[BotHarness]:
    """The bot behind either HTTP parser uvicorn may pick (``auto`` takes httptools when it is installed)."""
    harness = BotHarness(slack_api_url=slack.api_url, service_url=service.url, service_token=TOKEN,
                         response_url=slack.response_url(), http=request.param).start()
    yield harness
    harness.stop()


def connect(bot: BotHarness) -> socket.socket:
    url = urlsplit(bot.server.url)
    return socket.create_connection((url.hostname or "127.0.0.1", url.port or 80), timeout=5)


def headers(*, length: int | None) -> bytes:
    framing = f"Content-Length: {length}" if length is not None else "Transfer-Encoding: chunked"
    return (f"POST /slack/events HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n{framing}\r\n"
            "\r\n").encode()


def chunk(size: int) -> bytes:
    return f"{size:x}\r\n".encode() + b"x" * size + b"\r\n"


def read_response(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection (the socket timeout fails a server that waits)."""
    received = b""
    while data := sock.recv(65536):
        received += data
    return received


def test_a_declared_length_over_the_limit_is_refused_before_the_body_arrives(served: BotHarness) -> None:
    with connect(served) as sock:
        sock.sendall(headers(length=150 * MIB) + b"{")  # one byte of the 150 MiB it announces
        response = read_response(sock)
    assert response.startswith(b"HTTP/1.1 413 ")
    assert b"connection: close" in response.lower()


def test_a_chunked_body_is_refused_once_it_passes_the_limit(served: BotHarness) -> None:
    with connect(served) as sock:
        sock.sendall(headers(length=None))
        for _ in range(served.settings.max_body_bytes // CHUNK):
            sock.sendall(chunk(CHUNK))
        sock.sendall(chunk(1))  # one byte over, and the body never ends
        response = read_response(sock)
    assert response.startswith(b"HTTP/1.1 413 ")


def test_a_body_at_the_limit_still_reaches_the_signature_check(bot: BotHarness) -> None:
    padding = b"x" * (bot.settings.max_body_bytes - len(b'{"pad":""}'))
    response = bot.http.post(bot.events_url, content=b'{"pad":"' + padding + b'"}',
                             headers={"Content-Type": "application/json"})
    assert response.status_code == 401


def test_a_signed_command_still_works(bot: BotHarness, slack: FakeSlack, service: FakeService) -> None:
    assert bot.command("fine-tune 7B by Friday", user=REQUESTER).status_code == 200
    slack.wait_for("chat.postMessage")
    assert len(service.requests) == 1


def peak_rss_bytes() -> int:
    with open("/proc/self/status", encoding="ascii") as status_file:
        status = status_file.read()
    match = re.search(r"VmHWM:\s+(\d+) kB", status)
    assert match is not None
    return int(match.group(1)) * 1024


def flood(bot: BotHarness, *, chunked: bool, total: int, sent: list[int]) -> None:
    """Send ``total`` bytes of body until the server hangs up; record how much it let through."""
    count = 0
    with connect(bot) as sock:
        try:
            sock.sendall(headers(length=None if chunked else total))
            piece = chunk(CHUNK) if chunked else b"x" * CHUNK
            while count < total:
                sock.sendall(piece)
                count += CHUNK
        except OSError:  # the server answered 413 and closed: the rest of the body has nowhere to go
            pass
    sent.append(count)


def test_memory_stays_flat_under_four_150_mib_bodies_at_once(bot: BotHarness) -> None:
    """The bot runs in this process: its peak resident size (VmHWM, reset first) is what the bodies cost it."""
    total = 150 * MIB
    with open("/proc/self/clear_refs", "w", encoding="ascii") as clear_refs:
        clear_refs.write("5")  # resets VmHWM to the current resident size
    before = peak_rss_bytes()
    sent: list[int] = []
    senders = [threading.Thread(target=flood, args=(bot,), kwargs={"chunked": i % 2 == 0, "total": total,
                                                                  "sent": sent}) for i in range(4)]
    for sender in senders:
        sender.start()
    for sender in senders:
        sender.join(60)
    growth = peak_rss_bytes() - before
    figures = f"peak RSS grew {growth / MIB:.1f} MiB; MiB sent per connection {[round(s / MIB, 1) for s in sent]}"
    assert len(sent) == 4 and all(s < total for s in sent), figures  # the server hung up long before the end
    assert growth < 50 * MIB, figures
    assert bot.http.get(bot.events_url.replace("/slack/events", "/healthz")).status_code == 200
