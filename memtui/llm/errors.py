"""What can go wrong at the model boundary, each with the fix a person can apply.

    LLMError (MemtuiError)
    ├── NoApiKey          no model: no key in any of the places we look, and no usable Claude Code
    ├── AuthFailed        the key was rejected (401/403) or billing is off (402)
    ├── ModelNotFound     404 for the configured model id
    ├── Unavailable       429 / 5xx / 529 overloaded / timeout / connection, after bounded retries
    ├── RequestRejected   any other 4xx (too large, invalid request)
    ├── BadOutput         the model's JSON is missing or does not match the schema
    └── BudgetExceeded    today's estimated spend reached the daily budget

`kind` is a stable short name written to `.memory/status.json`; `fix` is the action to take.
"""

from __future__ import annotations

from memtui.errors import MemtuiError


class LLMError(MemtuiError):
    kind = "llm"
    #: Worth trying again within the same call (the retry loop looks at this).
    retryable = False

    def __init__(self, message: str, *, fix: str = "") -> None:
        super().__init__(f"{message}; {fix}" if fix else message)
        self.message = message
        self.fix = fix


class NoApiKey(LLMError):
    kind = "no-key"


class AuthFailed(LLMError):
    kind = "auth"


class ModelNotFound(LLMError):
    kind = "model-not-found"


class Unavailable(LLMError):
    kind = "unavailable"
    retryable = True


class RequestRejected(LLMError):
    kind = "rejected"


class BadOutput(LLMError):
    kind = "bad-output"


class BudgetExceeded(LLMError):
    kind = "budget"

    def __init__(self, spent: float, budget: float, *, what: str = "", setting: str = "") -> None:
        super().__init__(
            f"daily LLM budget reached ({what or f'${spent:.2f} of ${budget:.2f} spent'} today); capture is paused",
            fix=f"it resumes tomorrow, or raise {setting or '[llm] daily_budget_usd'} in .memory/config.toml"
            + ("" if setting else " (or MEMTUI_DAILY_BUDGET)"),
        )
        self.spent = spent
        self.budget = budget
