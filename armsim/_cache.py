"""Numba's on-disk cache, keyed by the source of the whole simulator.

Numba checks only the timestamp of a cached function's own file, not of the ops and
kernels it inlined from other files; keying the cache directory by a hash of every source
file makes any change anywhere start a fresh cache instead of running stale code.
"""
import hashlib
import os
import shutil
import time
from pathlib import Path

import numba

_ROOT = Path(__file__).resolve().parent.parent
_PACKAGES = ("armsim", "kernels")
STALE_DAYS = 7   # a cache of another source version unused this long is deleted


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
    current = base / source_hash()
    numba.config.CACHE_DIR = str(current)
    prune(base, keep=current)


def prune(base, keep, now=None):
    """Delete the caches of other source versions (upgrades, edits) untouched for
    STALE_DAYS: each is tens of megabytes and would otherwise pile up."""
    if not base.is_dir():
        return
    cutoff = (time.time() if now is None else now) - STALE_DAYS * 86400
    for d in base.iterdir():
        if d != keep and d.is_dir() and _last_used(d) < cutoff:
            shutil.rmtree(d, ignore_errors=True)


def _last_used(d):
    return max([d.stat().st_mtime] + [f.stat().st_mtime for f in d.iterdir()])
