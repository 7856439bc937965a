"""armsim: a cycle-approximate simulator of the Cortex-M DSP extension running CMSIS-NN.

`armsim.profile(model, core=..., path=...)` profiles a model from Python (`armsim.api`),
`armsim.sweep(...)` many models on many configurations and `armsim.latency(...)` one, remembered
(`armsim.sweeps`); they are imported on first use, so `import armsim` stays cheap (nothing is
compiled).
"""
from armsim.infra.startup import collector_paused

with collector_paused():
    from armsim.infra import cache as _cache

_cache.configure()

_API = ("profile", "Profile", "load_model")
_SWEEPS = ("sweep", "latency")        # armsim.sweeps: many models x configurations


def __getattr__(name):
    if name in _API:
        from armsim import api
        return getattr(api, name)
    if name in _SWEEPS:
        from armsim import sweeps
        return getattr(sweeps, name)
    raise AttributeError(f"module 'armsim' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_API) | set(_SWEEPS))
