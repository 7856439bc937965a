"""armsim: a cycle-approximate simulator of the Cortex-M DSP extension running CMSIS-NN."""
from . import _cache

_cache.configure()
