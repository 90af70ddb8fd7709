"""A loopback OpenAI-compatible server with a set latency, for the throughput benchmarks.

It answers ``POST /v1/chat/completions`` with "Yes." or "No." (from a hash of the last user
message) after a fixed delay or one drawn from a seeded lognormal, and ``GET /v1/models`` at once.
Built on aiohttp's server so that it costs little CPU per request: the benchmarks measure the
client, not this server.

Run it in its own process (``python -m kglens_tui.bench.latency_server --latency-s 0.1``, or
``--lognormal MU SIGMA``): it prints its base URL on one line and stops when its standard input
closes or sends a line (press Enter). `latency_server()` does that from Python.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import json
import random
import select
import subprocess
import sys
from collections.abc import Callable, Iterator
from typing import Any

from aiohttp import web

MODEL = "fake-model"
START_TIMEOUT_S = 60.0


def answer_for(payload: dict[str, Any]) -> str:
    """ "Yes." or "No.", deterministically from the last user message of a chat request."""
    messages = payload.get("messages") or []
    last = next(
        (str(m.get("content", "")) for m in reversed(messages) if m.get("role") == "user"), ""
    )
    return "Yes." if hashlib.sha256(last.encode()).digest()[0] % 2 == 0 else "No."


def make_app(delay: Callable[[], float]) -> web.Application:
    """The aiohttp application: chat completions after `delay()` seconds, and a model list."""

    async def chat(request: web.Request) -> web.Response:
        try:
            payload = json.loads(await request.read())
        except ValueError:
            return web.json_response({"error": {"message": "body is not JSON"}}, status=400)
        if not isinstance(payload, dict):
            return web.json_response({"error": {"message": "body is not an object"}}, status=400)
        await asyncio.sleep(delay())
        text = answer_for(payload)
        return web.json_response(
            {
                "id": "chatcmpl-bench",
                "object": "chat.completion",
                "model": payload.get("model", MODEL),
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": text},
                        "finish_reason": "stop",
                    }
                ],
                "usage": {"prompt_tokens": 0, "completion_tokens": 1, "total_tokens": 1},
            }
        )

    async def models(_request: web.Request) -> web.Response:
        return web.json_response({"object": "list", "data": [{"id": MODEL, "object": "model"}]})

    app = web.Application()
    app.router.add_post("/v1/chat/completions", chat)
    app.router.add_get("/v1/models", models)
    return app


async def serve(delay: Callable[[], float]) -> None:
    """Serve on 127.0.0.1 (a free port), print the base URL, stop when stdin closes."""
    runner = web.AppRunner(make_app(delay), access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0, backlog=512)
    await site.start()
    port = runner.addresses[0][1]
    print(f"http://127.0.0.1:{port}/v1", flush=True)
    loop = asyncio.get_running_loop()
    closed = loop.create_future()

    def close() -> None:
        if not closed.done():
            closed.set_result(None)

    loop.add_reader(sys.stdin.fileno(), close)
    try:
        await closed
    finally:
        loop.remove_reader(sys.stdin.fileno())
        await runner.cleanup()


@contextlib.contextmanager
def latency_server(
    latency_s: float = 0.0, lognormal: tuple[float, float] | None = None
) -> Iterator[str]:
    """Run the server in a child process (so it never competes with the caller for the GIL);
    yields its base URL; stops it on exit."""
    args = ["--lognormal", *map(repr, lognormal)] if lognormal else ["--latency-s", repr(latency_s)]
    proc = subprocess.Popen(
        [sys.executable, "-m", "kglens_tui.bench.latency_server", *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        ready, _, _ = select.select([proc.stdout], [], [], START_TIMEOUT_S)
        line = proc.stdout.readline().strip() if ready else ""
        if not line.startswith("http://127.0.0.1:"):
            raise RuntimeError(
                f"the benchmark's loopback server did not start within {START_TIMEOUT_S:g} s"
            )
        yield line
    finally:
        if proc.stdin is not None:
            proc.stdin.close()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--latency-s", type=float, default=0.1, help="fixed answer delay")
    group.add_argument(
        "--lognormal", type=float, nargs=2, metavar=("MU", "SIGMA"), help="lognormal delay"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the lognormal delays")
    args = parser.parse_args(argv)
    if args.lognormal:
        mu, sigma = args.lognormal
        rng = random.Random(args.seed)
        asyncio.run(serve(lambda: rng.lognormvariate(mu, sigma)))
    else:
        asyncio.run(serve(lambda: args.latency_s))


if __name__ == "__main__":
    main()
