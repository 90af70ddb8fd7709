"""An LLM judge of Wh replies (KGLens appendix A.6) that never blames the model under test.

The judge is asked up to `JUDGE_TRIES` times (the later tries sampled, so a model that answered
out of format greedily may answer in format); a reply without yes/no is counted as a failed call
of the judge (`CountingClient.reject`). When no try gives a verdict the model's reply keeps the
matcher's verdict, marked unjudged (`unjudged_label`): a helper's failure is never the model's.
"""

from __future__ import annotations

from dataclasses import dataclass

from kglens_tui.answers.verify import parse_judge_reply
from kglens_tui.core.verdict import Verdict
from kglens_tui.llm.base import ChatClient, ChatRequest, LLMError
from kglens_tui.llm.usage import CountingClient

JUDGE_TRIES = 3
"""How many times the judge is asked about one reply before it counts as unjudged."""
JUDGE_MAX_TOKENS = 24
"""Room for "yes" / "no" and a few words around it ("The response is correct.")."""
RETRY_TEMPERATURE = 0.7
"""The temperature of the tries after the first (a greedy repeat would say the same again)."""


@dataclass(frozen=True)
class Judged:
    """The judge's verdict (None: it gave none), what it said, and why it gave none."""

    verdict: Verdict | None
    said: str = ""
    failure: str = ""


async def judge_wh(judge: ChatClient, messages: tuple[dict[str, str], ...]) -> Judged:
    """Ask the judge whether a reply answers its question: ``messages`` is the ``verify_wh``
    prompt filled in with the question, its true answers and the reply."""
    failure = ""
    for attempt in range(JUDGE_TRIES):
        request = ChatRequest(
            messages=messages,
            max_tokens=JUDGE_MAX_TOKENS,
            temperature=0.0 if attempt == 0 else RETRY_TEMPERATURE,
        )
        try:
            judged = await judge.complete(request)
        except LLMError as exc:
            failure = f"judge {exc.kind}"
            if not exc.retryable:  # asking again will not mend it (auth, not found, ...)
                break
            continue
        verdict = parse_judge_reply(judged.text)
        if verdict in (Verdict.CORRECT, Verdict.INCORRECT):
            return Judged(verdict, judged.text.strip())
        if isinstance(judge, CountingClient):
            judge.reject()
        failure = "judge gave no yes/no"
    return Judged(None, failure=failure)


def unjudged_label(matcher: str, failure: str) -> str:
    """The `observation.verifier` of a reply the judge could not judge: the matcher's label and
    why ("alias match (unjudged: judge timeout)")."""
    return f"{matcher} (unjudged: {failure})"
