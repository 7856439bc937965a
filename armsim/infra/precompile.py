"""Compile a model's kernels in parallel before its first run.

numba compiles a kernel on its first call, in the calling process: a cold run of a model
spends nearly all its time compiling, one kernel after another, on one core.  Before a run,
`warm` forks helper processes (``ARMSIM_JOBS``, default: the CPUs this process may use) that
run the model's not-yet-seen steps on stand-in inputs, taking steps from one shared queue,
so their compiles fill the on-disk cache (`armsim.infra.cache`: one compile per function across
processes) side by side; the run itself then loads what they compiled.  Only compiling is
shared: the helpers' results are discarded, and the run computes every output itself.

A step counts as seen when a run of it completed with this cache and these sources (a marker
file per step key under the cache directory).  A marker can only be wrong in the cheap
direction: a step taken for unseen when its kernels are cached costs a helper a cache load.
"""
import functools
import hashlib
import os
import struct
import sys

import numpy as np

from armsim.infra import cache as _cache

_RECORD = struct.Struct("<i")


def jobs():
    """How many processes compile at once (``ARMSIM_JOBS``; default: usable CPUs)."""
    value = os.environ.get("ARMSIM_JOBS")
    if value:
        try:
            return max(1, int(value))
        except ValueError:
            raise ValueError(f"ARMSIM_JOBS={value!r} is not a number of processes") from None
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


@functools.lru_cache(maxsize=None)
def _sources_digest():
    """Once per process, like the cache's own source stamps (`_cache.source_stamp`)."""
    digest = hashlib.sha256()
    for name, path in sorted(_cache.sources().items()):
        digest.update(name.encode())
        digest.update(_cache._content_digest(path))
    return digest.hexdigest()[:20]


_SHORT = 8     # longer lists are data (per-channel multipliers, ...): only their length counts


def _plain(value):
    """The case's scalar facts (shapes, options, quantization), not its data arrays."""
    if isinstance(value, (bool, int, float, str)) or value is None:
        return repr(value)
    if isinstance(value, (list, tuple)):
        if len(value) > _SHORT:
            return f"[{len(value)} values]"
        if all(isinstance(v, (int, float, str)) for v in value):
            return repr(list(value))
    return None


def step_key(step, build):
    """What decides which kernels a step compiles: its op, family, build and case facts."""
    facts = [step.op, step.family, repr(build), repr(step.cmsis_function)]
    for case in (step.case, step.cmsis_case or {}):
        facts += [f"{name}={fact}" for name, value in sorted(case.items())
                  if (fact := _plain(value)) is not None]
    return hashlib.sha256("\n".join(facts).encode()).hexdigest()[:32]


_KNOWN = {}    # marker directory -> the keys this process knows: listed once, then added to


def _known_keys(directory):
    """The markers in `directory`, listed on first use in this process (a cache that has
    seen many models holds thousands: listing them per profile cost ~1 ms)."""
    if directory not in _KNOWN:
        try:
            _KNOWN[directory] = set(os.listdir(directory))
        except OSError:
            _KNOWN[directory] = set()
    return _KNOWN[directory]


class Seen:
    """The marker files of steps already run with this cache and these sources.  A marker
    another process writes later is not seen: its step is then compiled (or loaded from the
    cache) again by a helper, which costs time, never a wrong count."""

    def __init__(self, build):
        self.build = build
        self.keys = set()
        self._key_of = {}
        try:
            self.directory = _cache.cache_root() / "steps" / _sources_digest()
        except OSError:
            self.directory = None
            return
        self.keys = _known_keys(self.directory)

    def key(self, step):
        """`step_key` of `step` for this run's build, computed once."""
        if id(step) not in self._key_of:
            self._key_of[id(step)] = step_key(step, self.build)
        return self._key_of[id(step)]

    def __contains__(self, key):
        return key in self.keys

    def add(self, key):
        if self.directory is None or key in self.keys:
            return
        self.keys.add(key)
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            (self.directory / key).touch()
        except OSError:
            self.directory = None


class StandIns(dict):
    """Tensor values for helpers: the real ones where known, zeros of the tensor's shape
    and type otherwise (a kernel compiles the same for any values)."""

    def __init__(self, model, values):
        super().__init__(values)
        self.model = model

    def __missing__(self, index):
        tensor = self.model.tensors[index]
        return np.zeros(tensor.shape, dtype=tensor.dtype)


def warm(model, steps, values, build, run_step, seen):
    """Compile the kernels of `steps` not in `seen` in ``jobs()`` processes (this one and
    forked helpers); returns at once when fewer than two steps are unseen."""
    pending, keys = [], set()
    for step in steps:
        if step.host:
            continue
        key = seen.key(step)
        if key not in seen and key not in keys:
            keys.add(key)
            pending.append(step)
    workers = min(jobs(), len(pending))
    if workers < 2 or not hasattr(os, "fork"):
        return
    read_end, write_end = os.pipe()
    os.write(write_end, b"".join(_RECORD.pack(i) for i in range(len(pending))))
    os.close(write_end)
    inputs = StandIns(model, values)
    children = []
    for _ in range(workers - 1):
        pid = os.fork()
        if pid == 0:                                      # a helper: compile, then vanish
            code = 0
            try:
                _take(read_end, pending, inputs, build, run_step)
            except BaseException:                         # the run proper reports errors
                code = 1
            finally:
                sys.stdout.flush()
                os._exit(code)
        children.append(pid)
    try:
        _take(read_end, pending, inputs, build, run_step)
    finally:
        os.close(read_end)
        for pid in children:
            os.waitpid(pid, 0)


def _take(read_end, pending, inputs, build, run_step):
    """Run steps from the shared queue until it is empty (a pipe: each read of one record
    is atomic, so every step is taken by exactly one process)."""
    while True:
        record = os.read(read_end, _RECORD.size)
        if len(record) < _RECORD.size:
            return
        (index,) = _RECORD.unpack(record)
        try:
            run_step(pending[index], inputs, build)
        except Exception:
            pass                                          # the run proper reports errors
