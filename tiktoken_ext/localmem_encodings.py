"""tiktoken plugin: cl100k_base from the copy shipped in localmem's wheel.

tiktoken downloads its encodings on first use; a desktop machine may be
offline. tiktoken discovers the modules of the ``tiktoken_ext`` namespace
package, so ``tiktoken.get_encoding("localmem_cl100k_base")`` loads the
same ranks, pattern and special tokens as ``cl100k_base`` from
``localmem/data/cl100k_base.tiktoken``, after checking the file against the
SHA-256 that tiktoken itself publishes for it. Nothing is downloaded and
nothing is written to tiktoken's cache directory.
"""

from __future__ import annotations

import base64
import hashlib
from importlib import resources

CL100K_FILE = "cl100k_base.tiktoken"
# The hash tiktoken's own openai_public.cl100k_base() expects for this file.
CL100K_SHA256 = "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7"
CL100K_PATTERN = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
)
CL100K_SPECIAL_TOKENS = {
    "<|endoftext|>": 100257,
    "<|fim_prefix|>": 100258,
    "<|fim_middle|>": 100259,
    "<|fim_suffix|>": 100260,
    "<|endofprompt|>": 100276,
}


def load_ranks(data: bytes, expected_sha256: str) -> dict[bytes, int]:
    """Parse a ``.tiktoken`` file (base64 token, rank per line) after checking its hash."""
    actual = hashlib.sha256(data).hexdigest()
    if actual != expected_sha256:
        raise ValueError(
            f"{CL100K_FILE} does not match its published hash "
            f"(expected {expected_sha256}, got {actual}); reinstall localmem"
        )
    return {
        base64.b64decode(token): int(rank)
        for token, rank in (line.split() for line in data.splitlines() if line)
    }


def localmem_cl100k_base() -> dict:
    data = resources.files("localmem").joinpath("data").joinpath(CL100K_FILE).read_bytes()
    return {
        "name": "localmem_cl100k_base",
        "pat_str": CL100K_PATTERN,
        "mergeable_ranks": load_ranks(data, CL100K_SHA256),
        "special_tokens": CL100K_SPECIAL_TOKENS,
    }


ENCODING_CONSTRUCTORS = {"localmem_cl100k_base": localmem_cl100k_base}
