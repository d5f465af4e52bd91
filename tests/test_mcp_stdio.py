"""The MCP server's stdin and stdout (``localmem.mcp_stdio``): read and written by the
event loop on pipes, by a worker thread otherwise, with the same lines and refusals.

The server end to end, over real stdio pipes with the SDK's client, is ``test_mcp.py``."""

from __future__ import annotations

import json
import os
import socket
import threading
from pathlib import Path
from typing import Any, BinaryIO

import anyio
import pytest

from localmem.mcp_stdio import PipeReader, loop_can_serve, open_stdio

MAX = 64  # a small line cap, so a refused line is cheap to send
POSIX = pytest.mark.skipif(os.name != "posix", reason="the loop serves pipes on POSIX only")

FEED = (
    b'{"jsonrpc": "2.0", "id": 1, "method": "ping"}\n'
    b"\n"
    b'{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"x": "' + b"y" * 200 + b'"}}\n'
    b'{"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"x": "\\ud800"}}\n'
    b"not json\n"
    b'{"jsonrpc": "2.0", "id": 4, "method": "ping"}'  # the last line, with no newline
)


def serve(stdin: BinaryIO, stdout: BinaryIO, **kwargs: Any) -> tuple[list[str], bool]:
    """Every line ``open_stdio`` passes on, each echoed back through its writer;
    and whether the loop served the pipes itself (no thread)."""

    async def main() -> tuple[list[str], bool]:
        lines = []
        async with open_stdio(stdin, stdout, **kwargs) as (guarded, out):
            guarded._max = MAX
            async for line in guarded:
                lines.append(line)
                await out.write("echo " + line.rstrip("\n") + "\n")
                await out.flush()
            return lines, guarded._pipe is not None

    return anyio.run(main)


def answered(raw: bytes) -> list[Any]:
    return [line if line.startswith("echo ") else json.loads(line)
            for line in raw.decode().splitlines()]


def through_pipes(feed: bytes, **kwargs: Any) -> tuple[list[str], bool, bytes]:
    """``serve`` on two real pipes, ``feed`` written into one by another thread."""
    in_r, in_w = os.pipe()
    out_r, out_w = os.pipe()
    got: list[bytes] = []

    def write() -> None:
        with os.fdopen(in_w, "wb") as sink:
            sink.write(feed)

    def read() -> None:
        with os.fdopen(out_r, "rb") as source:
            got.append(source.read())

    threads = [threading.Thread(target=write), threading.Thread(target=read)]
    for thread in threads:
        thread.start()
    with os.fdopen(in_r, "rb", buffering=0) as stdin, os.fdopen(out_w, "wb", buffering=0) as stdout:
        lines, on_loop = serve(stdin, stdout, **kwargs)
        assert os.get_blocking(stdin.fileno()) and os.get_blocking(stdout.fileno())
    for thread in threads:
        thread.join(10)
    return lines, on_loop, got[0]


@POSIX
def test_the_loop_reads_and_writes_pipes_and_sockets_only(tmp_path: Path) -> None:
    read_end, write_end = os.pipe()
    left, right = socket.socketpair()
    with open(tmp_path / "file", "wb") as file:
        try:
            assert loop_can_serve(read_end) and loop_can_serve(write_end)
            assert loop_can_serve(left.fileno())
            assert not loop_can_serve(file.fileno())
            assert not loop_can_serve(10_000)  # not open
        finally:
            os.close(read_end), os.close(write_end), left.close(), right.close()


@POSIX
def test_pipes_give_the_same_lines_and_refusals_as_the_thread(tmp_path: Path) -> None:
    lines, on_loop, raw = through_pipes(FEED)
    assert on_loop
    source, sink = tmp_path / "in", tmp_path / "out"
    source.write_bytes(FEED)
    with source.open("rb", buffering=0) as stdin, sink.open("wb", buffering=0) as stdout:
        file_lines, file_on_loop = serve(stdin, stdout)
    assert not file_on_loop  # a file: read and written in a worker thread
    assert lines == file_lines
    assert [json.loads(line)["id"] for line in lines] == [1, 4]
    assert answered(raw) == answered(sink.read_bytes())
    refused = [reply for reply in answered(raw) if isinstance(reply, dict)]
    codes = [(r["id"], r["error"]["code"]) for r in refused]
    assert codes == [(2, -32600), (3, -32600), (None, -32700)]


def test_pipes_are_left_to_the_thread_when_the_loop_may_not_serve_them() -> None:
    lines, on_loop, raw = through_pipes(FEED, can_serve=lambda fd: False)
    assert not on_loop
    assert [json.loads(line)["id"] for line in lines] == [1, 4]


@pytest.mark.parametrize("limit", [1, 5, 11, 100])
def test_pipe_reader_reads_lines_as_a_file_does(limit: int) -> None:
    data = b"first line\nsecond\n\nno newline at the end"

    async def main() -> list[bytes]:
        import asyncio
        import io

        reader = asyncio.StreamReader()
        reader.feed_data(data)
        reader.feed_eof()
        pipe, file, out = PipeReader(reader), io.BytesIO(data), []
        while True:
            got = await pipe.readline(limit)
            assert got == file.readline(limit)
            if not got:
                return out
            out.append(got)

    assert b"".join(anyio.run(main)) == data

