"""Prompt files in prompts/: parsed into chat messages, filled in, and hashed for the manifest."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cache, cached_property

from kglens_tui.core.errors import KGLensError
from kglens_tui.shipped import shipped_dir

PROMPT_NAMES = (
    "answer_yes_no",
    "answer_generative",
    "generate_yes_no",
    "generate_wh",
    "verify_wh",
    "kontest_yes_no",
    "kontest_paraphrase",
    "facteval_tfq",
    "facteval_mcq",
    "facteval_fib",
    "facteval_saq",
    "facteval_generate_tfq",
    "facteval_generate_fib",
    "facteval_generate_wh",
)
_ROLES = ("system", "user", "assistant")


class PromptError(KGLensError, ValueError):
    """A prompt file that cannot be parsed."""


@dataclass(frozen=True)
class Prompt:
    """A few-shot chat prompt; the last message holds the {placeholders}."""

    name: str
    messages: tuple[tuple[str, str], ...]
    sha256: str

    def render(self, **values: str) -> tuple[dict[str, str], ...]:
        """The messages with placeholders filled in (messages without any are shared)."""
        one = self._one_templated
        if one is not None:  # the usual few-shot prompt: only one turn (the last) varies
            before, role, text, after = one
            return (*before, {"role": role, "content": _fill(text, values)}, *after)
        static = self._static
        return tuple(
            {"role": role, "content": _fill(text, values)} if "{" in text else static[i]
            for i, (role, text) in enumerate(self.messages)
        )

    @cached_property
    def _one_templated(
        self,
    ) -> tuple[tuple[dict[str, str], ...], str, str, tuple[dict[str, str], ...]] | None:
        """(the shared messages before, role, text, the shared messages after) of the one
        message that holds placeholders; None when there are none or several (a prompt renders
        once per question: its parts are split once)."""
        if len(self._templated) != 1:
            return None
        i = self._templated[0]
        role, text = self.messages[i]
        return self._static[:i], role, text, self._static[i + 1 :]

    @cached_property
    def _static(self) -> tuple[dict[str, str], ...]:
        return tuple({"role": role, "content": text} for role, text in self.messages)

    @cached_property
    def _templated(self) -> tuple[int, ...]:
        """Positions of the messages that hold placeholders."""
        return tuple(i for i, (_role, text) in enumerate(self.messages) if "{" in text)

    def examples_reversed(self) -> Prompt:
        """The same prompt with its few-shot (user, assistant) pairs in reverse order."""
        head = [m for m in self.messages if m[0] == "system"]
        body = [m for m in self.messages if m[0] != "system"]
        last, shots = body[-1], body[:-1]
        pairs = [shots[i : i + 2] for i in range(0, len(shots), 2)]
        flat = [m for pair in reversed(pairs) for m in pair]
        return Prompt(self.name + ":reversed", tuple(head + flat + [last]), self.sha256)


def _fill(text: str, values: dict[str, str]) -> str:
    for key, value in values.items():
        text = text.replace("{" + key + "}", value)
    return text


def parse_prompt(name: str, text: str) -> Prompt:
    """Parse '## role' sections; '#' lines before the first section are comments."""
    messages: list[tuple[str, list[str]]] = []
    for lineno, line in enumerate(text.splitlines(), start=1):
        if line.startswith("## "):
            role = line[3:].strip()
            if role not in _ROLES:
                raise PromptError(f"prompts/{name}.txt, line {lineno}: unknown role '{role}'")
            messages.append((role, []))
        elif messages:
            messages[-1][1].append(line)
        elif line.strip() and not line.startswith("#"):
            raise PromptError(f"prompts/{name}.txt, line {lineno}: text before the first '## role'")
    if not messages or messages[-1][0] != "user":
        raise PromptError(f"prompts/{name}.txt: the last message must be '## user'")
    parsed = tuple((role, "\n".join(lines).strip()) for role, lines in messages)
    return Prompt(name, parsed, hashlib.sha256(text.encode("utf-8")).hexdigest())


@cache
def load_prompt(name: str) -> Prompt:
    """A prompt shipped in kglens_tui.prompts by name (without .txt)."""
    path = shipped_dir("prompts") / f"{name}.txt"
    return parse_prompt(name, path.read_text(encoding="utf-8"))


def prompt_hashes() -> dict[str, str]:
    """sha256 of every prompt file, for the run manifest."""
    return {name: load_prompt(name).sha256 for name in PROMPT_NAMES}
