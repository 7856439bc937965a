"""The Python API for notebooks and scripts: `armsim.profile(model, ...)`.

    import armsim
    p = armsim.profile("kws", core="cortex-m7", path="simd")
    p["total"]["cycles"], p["ops"][0]["kernel"]  # the `armsim profile --json` dict
    rows = p.table()                             # one flat dict per op
    df = p.to_pandas()                           # the same rows as a DataFrame (needs pandas)

`load_model` is where a model argument becomes a model, for this API and the command line
alike: a `.tflite` path, a model name looked up in the models directory `$ARMSIM_MODELS`
(`NAME/model.tflite`, the layout of the MLPerf Tiny models), or the name of an example
armsim builds itself (`armsim.data.modelgen.EXAMPLES`).  Nothing is looked up anywhere else.
"""
import os
from pathlib import Path

from armsim.pipeline import arena as arena_mod
from armsim.pipeline import model as model_mod
from armsim.data import modelgen
from armsim.pipeline import prepare as prepare_mod
from armsim.pipeline import profiler
from armsim.pipeline.build import Build

MODELS_ENV = "ARMSIM_MODELS"
DEFAULT_MODEL = "example"


def models_dir():
    """The models directory `$ARMSIM_MODELS`, or None when it is not set."""
    directory = os.environ.get(MODELS_ENV)
    return Path(directory) if directory else None


def example_label(name):
    """The file name a bundled example is reported under (it has no file)."""
    return f"{name}.tflite" if name == DEFAULT_MODEL else f"{name}-example.tflite"


def load_model(model=None):
    """An `armsim.pipeline.model.Model` from `model`: a Model (returned as is), .tflite bytes, a path,
    or a name: `$ARMSIM_MODELS/NAME/model.tflite` if that exists, else the bundled example
    NAME; None is the default example.  Raises `armsim.pipeline.model.ModelError` (one line)."""
    if isinstance(model, model_mod.Model):
        return model
    if isinstance(model, (bytes, bytearray)):
        return model_mod.parse(bytes(model), "<bytes>.tflite")
    name = DEFAULT_MODEL if model is None else os.fspath(model)
    path = Path(name)
    # os.path's checks answer False where Path's raise (a name beyond NAME_MAX, a NUL byte)
    if os.path.exists(path) or os.sep in name or name.endswith(".tflite"):
        return model_mod.load(str(path))
    directory = models_dir()
    if directory is not None and os.path.isfile(directory / name / "model.tflite"):
        return model_mod.load(str(directory / name / "model.tflite"))
    if name in modelgen.EXAMPLES:
        return model_mod.parse(modelgen.EXAMPLES[name](seed=0), example_label(name))
    where = f"${MODELS_ENV}={directory}" if directory else f"${MODELS_ENV} not set"
    name = model_mod.printable(name)
    raise model_mod.ModelError(f"{name}: no such file, no {name}/model.tflite in the models "
                               f"directory ({where}), and no bundled example of that name "
                               f"({', '.join(modelgen.EXAMPLES)})")


class Profile(dict):
    """The dict `armsim profile --json` writes (docs/json_schema.md), with the model's
    outputs (`outputs`, numpy arrays) and a per-op table for pandas."""

    def __init__(self, data, outputs):
        super().__init__(data)
        self.outputs = outputs

    def table(self):
        """One flat dict per op: the op's JSON fields less its per-mnemonic counts, the output
        shape as a tuple, and each stage's cycles as a `stage_<name>` column (0 where the op
        has none): ready for `pandas.DataFrame(profile.table())`."""
        stages = list(dict.fromkeys(s for op in self["ops"] for s in op.get("stages", {})))
        rows = []
        for op in self["ops"]:
            row = {k: tuple(v) if k == "output_shape" else v for k, v in op.items()
                   if k not in ("mnemonics", "fitted_mnemonics", "stages")}
            row.update({f"stage_{s}": op.get("stages", {}).get(s, {}).get("cycles", 0)
                        for s in stages})
            rows.append(row)
        return rows

    def to_pandas(self):
        """`table()` as a pandas DataFrame."""
        try:
            import pandas
        except ImportError:
            raise ImportError("Profile.to_pandas() needs pandas (pip install pandas); "
                              "Profile.table() gives the same rows as dicts") from None
        return pandas.DataFrame(self.table())


def profile(model=None, *, core="cortex-m4", path="simd", toolchain="gcc", clock_mhz=100.0,
            flash_wait_states=0, inputs=None, board=None, single_rounding=False):
    """Profile `model` (see `load_model`; None is the bundled example) on `path` ("simd",
    "scalar" or "reference") and `core`, like `armsim profile`; returns a `Profile`.
    `inputs` is one array per model input (a single array for a one-input model);
    default: the command line's seeded random input.  `board`: an `armsim.data.boards.
    Configuration` (`boards.configure(NAME, ...)`) pricing memory like that board, with its
    core and clock as `core` and `clock_mhz`; `single_rounding`: CMSIS-NN built with
    CMSIS_NN_USE_SINGLE_ROUNDING (`armsim whatif --vs rounding=single`)."""
    build = Build(path, toolchain, core, single_rounding)
    m = load_model(model)
    if inputs is not None and not isinstance(inputs, (list, tuple)):
        inputs = [inputs]
    steps = prepare_mod.prepare(m)
    prof = profiler.run(m, build, clock_mhz, flash_wait_states, inputs=inputs, steps=steps,
                        board=board)
    plan = arena_mod.plan(m, steps, build)
    return Profile(prof.to_json(plan.total), prof.outputs)


__all__ = ["profile", "Profile", "load_model", "models_dir", "MODELS_ENV", "DEFAULT_MODEL"]
