"""Read the vendored PHH corpus (``tests/data/phh-corpus.tar.xz``) without unpacking it."""

from __future__ import annotations

import tarfile
from collections.abc import Iterator
from pathlib import Path

CORPUS = Path(__file__).parent / "data" / "phh-corpus.tar.xz"


def corpus_texts(prefix: str = "phh/") -> Iterator[tuple[str, str]]:
    """``(path in the archive, file text)`` for every ``.phh`` file under ``prefix``, sorted."""
    with tarfile.open(CORPUS, "r:xz") as tf:
        members = sorted(
            (m for m in tf.getmembers() if m.isfile() and m.name.startswith(prefix)
             and m.name.endswith(".phh")),
            key=lambda m: m.name,
        )
        for m in members:
            f = tf.extractfile(m)
            assert f is not None
            yield m.name, f.read().decode("utf-8")
