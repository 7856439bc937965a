"""Numba's on-disk cache, keyed by the source of the whole simulator.

Numba checks only the timestamp of a cached function's own file, not of the ops and
kernels it inlined from other files; keying the cache directory by a hash of every source
file makes any change anywhere start a fresh cache instead of running stale code.
"""
import hashlib
import os
from pathlib import Path

import numba

_ROOT = Path(__file__).resolve().parent.parent
_PACKAGES = ("armsim", "kernels")


def source_hash():
    digest = hashlib.sha256(numba.__version__.encode())
    for package in _PACKAGES:
        for path in sorted((_ROOT / package).rglob("*.py")):
            digest.update(path.relative_to(_ROOT).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def configure():
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    base = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "armsim"
    numba.config.CACHE_DIR = str(base / source_hash())
