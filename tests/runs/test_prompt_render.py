"""Prompt.render: every shipped prompt (and its reversed few-shot order) filled in gives each
message its text with the placeholders replaced, in order, whether one message or several hold
placeholders."""

from __future__ import annotations

import re

import pytest

from kglens_tui.runs.prompts import PROMPT_NAMES, Prompt, load_prompt, parse_prompt

PLACEHOLDER = re.compile(r"\{(\w+)\}")


def _expected(prompt: Prompt, values: dict[str, str]) -> list[dict[str, str]]:
    out = []
    for role, text in prompt.messages:
        for key, value in values.items():
            text = text.replace("{" + key + "}", value)
        out.append({"role": role, "content": text})
    return out


def _values(prompt: Prompt) -> dict[str, str]:
    keys = {k for _role, text in prompt.messages for k in PLACEHOLDER.findall(text)}
    return {key: f"<{key} {i}>" for i, key in enumerate(sorted(keys))}


@pytest.mark.parametrize("name", PROMPT_NAMES)
def test_shipped_prompts_render_every_message(name: str) -> None:
    for prompt in (load_prompt(name), load_prompt(name).examples_reversed()):
        values = _values(prompt)
        assert values, f"{name} has no placeholder"
        rendered = prompt.render(**values)
        assert list(rendered) == _expected(prompt, values)
        assert rendered == prompt.render(**values)  # a second render: the same (nothing kept)


def test_several_templated_messages_and_none() -> None:
    text = (
        "## system\nAnswer about {topic}.\n## user\nWhat is 1+1?\n## assistant\n2\n"
        "## user\n{question}\n"
    )
    prompt = parse_prompt("two", text)
    values = {"topic": "sums", "question": "What is 2+2?"}
    assert list(prompt.render(**values)) == _expected(prompt, values)
    static = parse_prompt("none", "## user\nHello.\n")
    assert list(static.render()) == [{"role": "user", "content": "Hello."}]


def test_only_the_templated_message_is_new() -> None:
    prompt = load_prompt("answer_yes_no")
    first = prompt.render(question="Is Paris in France?")
    second = prompt.render(question="Is Rome in Spain?")
    assert first[-1]["content"] != second[-1]["content"]
    assert "Is Rome in Spain?" in second[-1]["content"]
    assert all(a is b for a, b in zip(first[:-1], second[:-1], strict=True))
