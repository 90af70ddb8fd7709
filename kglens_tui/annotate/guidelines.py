"""The paper's annotation instructions (appendix A.5), verbatim, and the two questions asked."""

from __future__ import annotations

GUIDELINES_SOURCE = "KGLens, appendix A.5 (Human Evaluation): the annotation instruction"

GUIDELINES_MARKDOWN = """\
### Instruction

In this survey, you are provided with a question, the answer (and answer aliases separated by comma), and an AI’s response to this question.

#### Background

This survey is to check if the question is understandable, and if the AI’s response is matched with the given answer.

#### Annotation Guideline

As an annotator, you are asked to judge whether the intent of the question is clear enough to be understood (if you can understand the question, please select the option ‘Yes’, whether you know the answer or not).

For some questions, you won’t see the answer and AI’s response.

For some questions, you will see the answer and AI’s response. Then you need to check if the AI’s response is correct or not. Please select the option "correct" when the answer, or any of the answer alias appears in AI’s response. Otherwise, select "Incorrect".

Note: You don’t need to do any research to find the answer. Just use the provided answer.
"""
"""The instruction text shown to the paper's five annotators, as Markdown (headings as printed)."""

QUESTION_CLEAR_PROMPT = "Is the intent of the question clear?"
"""Asked for every item; answered yes or no."""

RESPONSE_CORRECT_PROMPT = "Is the AI's response correct, given the answer and its aliases?"
"""Asked for Wh items only; answered correct or incorrect."""

QUESTION_CLEAR_VALUES = ("yes", "no")
RESPONSE_CORRECT_VALUES = ("correct", "incorrect")
