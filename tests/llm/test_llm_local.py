"""LocalLlamaClient with SmolLM2-135M-Instruct (needs the `local` extra; skipped without it)."""

from __future__ import annotations

import asyncio
import importlib.metadata
import importlib.util
from pathlib import Path

import pytest

from kglens_tui.llm import local_llama
from kglens_tui.llm.base import ChatClient, ChatRequest
from kglens_tui.llm.factory import make_client
from kglens_tui.llm.local_llama import (
    LocalLlamaClient,
    LocalModelUnavailable,
    find_smollm2_gguf,
    local_available,
)

pytestmark = pytest.mark.llm


def _missing_reason() -> str | None:
    if importlib.util.find_spec("llama_cpp") is None:
        return "llama-cpp-python is not installed (pip install '.[local]')"
    try:
        find_smollm2_gguf()
    except LocalModelUnavailable as exc:
        return str(exc)
    return None


MISSING = _missing_reason()
needs_model = pytest.mark.skipif(MISSING is not None, reason=MISSING or "")

# The paper's Yes/No answering prompt (appendix A.6), with its two demonstrations.
YES_NO_MESSAGES = (
    {
        "role": "system",
        "content": "You are a helpful assistant, please answer Yes or No to the user's questions.",
    },
    {"role": "user", "content": "Is Belgium located in the continent of Europe?"},
    {"role": "assistant", "content": "Yes."},
    {"role": "user", "content": "Is Andrzej Duda the head of state of Belgium?"},
    {"role": "assistant", "content": "No."},
    {"role": "user", "content": "Is Paris the capital of France?"},
)


def test_client_constructs_without_llama_cpp() -> None:
    client = LocalLlamaClient()
    assert isinstance(client, ChatClient)
    assert client.label == "local:smollm2" and client.simulated is False
    assert isinstance(make_client("local:smollm2"), LocalLlamaClient)
    with pytest.raises(ValueError, match="unknown local model"):
        make_client("local:gpt2")


def test_missing_distribution_has_install_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing(name: str) -> importlib.metadata.Distribution:
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(local_llama.importlib.metadata, "distribution", missing)
    with pytest.raises(LocalModelUnavailable, match=r"pip install '\.\[local\]'") as info:
        find_smollm2_gguf()
    assert "CMAKE_ARGS=-DGGML_NATIVE=OFF" in str(info.value)
    assert local_available() is False


@needs_model
def test_find_smollm2_gguf() -> None:
    path = find_smollm2_gguf()
    assert isinstance(path, Path) and path.suffix == ".gguf" and path.is_file()
    assert path.stat().st_size > 10_000_000
    assert local_available()


@needs_model
def test_smollm2_answers_yes_no_prompt() -> None:
    async def go() -> tuple[str, str, int, int]:
        client = LocalLlamaClient(n_ctx=512)
        try:
            request = ChatRequest(messages=YES_NO_MESSAGES, max_tokens=16)
            first = await client.complete(request)
            second = await client.complete(request)
        finally:
            await client.aclose()
        return first.text, second.text, first.prompt_tokens, first.completion_tokens

    first, second, prompt_tokens, completion_tokens = asyncio.run(go())
    assert first.strip()
    assert first == second  # greedy decoding is deterministic
    assert prompt_tokens > 20 and completion_tokens > 0


def test_sampling_is_greedy_at_zero_and_seeded_per_question_above() -> None:
    from kglens_tui.llm.base import ChatRequest, QuestionMeta
    from kglens_tui.llm.local_llama import sampling

    def request(key: str, temperature: float) -> ChatRequest:
        meta = QuestionMeta(key=key, edge_id=1, subject="s", predicate="p", object="o", qtype="wh")
        return ChatRequest(messages=(), temperature=temperature, meta=meta)

    assert sampling(request("it1:s0:e1", 0.0), 7) == {"temperature": 0.0, "top_k": 1, "seed": 7}
    first = sampling(request("it1:s0:e1", 0.8), 7)
    assert first["temperature"] == 0.8 and first["top_k"] > 1
    assert first == sampling(request("it1:s0:e1", 0.8), 7)  # a rerun answers the same
    assert first["seed"] != sampling(request("it9:s3:e1", 0.8), 7)["seed"]  # another epoch
