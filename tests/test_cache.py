"""The numba cache directory: keyed by the sources, stale versions pruned."""
import os
import time

from armsim import _cache


def test_cache_key_follows_every_source(tmp_path, monkeypatch):
    monkeypatch.setattr(_cache, "_ROOT", tmp_path)
    (tmp_path / "armsim").mkdir()
    (tmp_path / "kernels").mkdir()
    (tmp_path / "kernels" / "k.py").write_text("x = 1\n")
    before = _cache.source_hash()
    (tmp_path / "kernels" / "k.py").write_text("x = 2\n")
    assert _cache.source_hash() != before


def test_prune_removes_only_stale_other_versions(tmp_path):
    now = time.time()
    old = now - (_cache.STALE_DAYS + 1) * 86400
    current, stale, recent, old_current = (tmp_path / n for n in ("cur", "stale", "recent",
                                                                   "x"))
    for d in (current, stale, recent):
        d.mkdir()
        (d / "f.nbi").write_bytes(b"")
    for p in (stale / "f.nbi", stale, current / "f.nbi", current):
        os.utime(p, (old, old))
    _cache.prune(tmp_path, keep=current, now=now)
    assert current.exists() and recent.exists() and not stale.exists()
    _cache.prune(tmp_path / "missing", keep=old_current, now=now)   # no cache yet: no error
