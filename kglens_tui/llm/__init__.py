"""Chat clients for the target, generator and verifier models.

Heavy or optional modules (openai, llama.cpp) load only when their client is built.
"""

from kglens_tui.llm.base import (
    ChatClient,
    ChatRequest,
    Completion,
    LLMError,
    QuestionMeta,
    user_messages,
)
from kglens_tui.llm.factory import make_client

__all__ = [
    "ChatClient",
    "ChatRequest",
    "Completion",
    "LLMError",
    "QuestionMeta",
    "make_client",
    "user_messages",
]
