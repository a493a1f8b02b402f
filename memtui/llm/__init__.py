"""The one boundary to the model: settings, key lookup, the Anthropic client, prompts, schemas, usage.

Nothing here imports `anthropic` at module level (it takes ~2 s); only `client.Client` does, on
its first call. This package's `__init__` is safe on a hook's fast path.
"""
