"""Many models on many configurations: `armsim sweep`, `armsim.sweep(...)`, `armsim.latency(...)`.

A *run* is one model profiled on one configuration (core, board, build, what-if settings) by
the code behind `armsim profile --json` (`armsim.api.profile`).  A run gives one row per op
(the op's JSON fields, its `stage_<name>` cycles and its mnemonic histograms) and a totals
row, or, when the model cannot be profiled, one error row holding the one-line error the
command line would print.  Every row carries the run's key: the model's sha256, the
configuration (`Config.label`) and armsim's version.

The results are one Parquet file.  While a sweep runs, this process appends each finished
run to a journal beside it (`OUTPUT.journal`, one JSON line per run, flushed at once), so a
sweep that is killed loses only the runs in flight; the journal is folded into the Parquet
file when the sweep ends, or by the next sweep on that file, which skips every run the file
or the journal holds.  Runs execute in this process (one job), in a local process pool, or
on a Dask cluster (`scheduler=`): pool processes and cluster workers receive the model's
bytes, compile into their own kernel cache, and send back the rows; only this process writes
results, as each run completes.

This module is `armsim.sweeps`, not `armsim.sweep`: a module of that name would shadow the
function `armsim.sweep` once imported (as `armsim.pipeline.profiler` does not shadow `armsim.profile`).
"""
import collections
import functools
import glob
import hashlib
import itertools
import json
import os
import threading
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import NamedTuple

from armsim.data import boards
from armsim.pipeline import model as model_mod
from armsim.pipeline.build import Build, BuildError

#: armsim's own process pool: a fresh interpreter forks the workers (not this process, which
#: may run threads: the progress bar's)
START_METHOD = "forkserver"
CHUNK = 1 << 20              # bytes hashed at a time


class SweepError(ValueError):
    """Bad input to a sweep (no models, an unknown setting, an unusable output): one line."""


def _version():
    from importlib import metadata
    try:
        return metadata.version("armsim")
    except metadata.PackageNotFoundError:       # run from a source tree that is not installed
        return "unknown"


VERSION = _version()


# --- configurations --------------------------------------------------------------------------

def _on_off(value, on=True, off=False):
    if isinstance(value, bool):
        return on if value else off
    return {"on": on, "off": off}[value]


def _text(value):
    if not isinstance(value, str) or not value:
        raise ValueError(value)
    return value


def _board(value):
    """A board name, or none (zero-wait-state memory, as without --board)."""
    return None if value is None or value == "none" else _text(value)


#: the settings a configuration gives: KEY -> (Config field, how its value is read).  The first
#: seven are `armsim whatif --vs`'s keys; a board and where it places memory complete them
#: (`armsim profile --board --arena --weights --stack --no-caches`).
SETTINGS = {
    "core": ("core", _text),
    "board": ("board", _board),
    "path": ("path", _text),
    "toolchain": ("toolchain", _text),
    "clock-mhz": ("clock_mhz", float),
    "flash-wait-states": ("flash_wait_states", int),
    "dsp": ("path", lambda v: _on_off(v, "simd", "scalar")),
    # CMSIS-NN built with CMSIS_NN_USE_SINGLE_ROUNDING (it changes outputs)
    "rounding": ("single_rounding", lambda v: {"single": True, "double": False}[v]
                 if not isinstance(v, bool) else v),
    "arena": ("arena", _text),
    "weights": ("weights", _text),
    "stack": ("stack", _text),
    "caches": ("caches", _on_off),
}
_BOARD_ONLY = ("arena", "weights", "stack", "caches")


@dataclass(frozen=True)
class Config:
    """One resolved configuration: what `armsim profile` would run with."""
    core: str = "cortex-m4"
    path: str = "simd"
    toolchain: str = "gcc"
    clock_mhz: float = 100.0
    flash_wait_states: int = 0      # None with a board: its wait-state table's
    single_rounding: bool = False
    board: str = None
    arena: str = None               # with a board: where it places the arena, ... (None: its
    weights: str = None             # default placement)
    stack: str = None
    caches: bool = None             # with a board: its caches on (True) or off

    def label(self):
        """The configuration as KEY=VALUE pairs (`configuration` reads it back): the results'
        `config` key."""
        def text(v):
            if isinstance(v, float):
                return str(int(v)) if v.is_integer() else repr(v)
            return str(v)
        pairs = [("board", self.board), ("core", self.core), ("path", self.path),
                 ("toolchain", self.toolchain), ("clock-mhz", self.clock_mhz),
                 ("flash-wait-states", self.flash_wait_states),
                 ("rounding", "single" if self.single_rounding else "double"),
                 ("arena", self.arena), ("weights", self.weights), ("stack", self.stack),
                 ("caches", None if self.caches is None else "on" if self.caches else "off")]
        return ",".join(f"{k}={text(v)}" for k, v in pairs if v is not None)

    def board_configuration(self):
        """The `armsim.data.boards.Configuration` memory is priced with, or None."""
        if self.board is None:
            return None
        return boards.configure(self.board, self.clock_mhz, {"flash": self.flash_wait_states},
                                self.arena, self.weights, self.caches, self.core, self.stack)

    def profile_options(self):
        """`armsim.api.profile`'s keyword arguments for this configuration."""
        return {"core": self.core, "path": self.path, "toolchain": self.toolchain,
                "clock_mhz": self.clock_mhz,
                "flash_wait_states": 0 if self.board else self.flash_wait_states,
                "board": self.board_configuration(), "single_rounding": self.single_rounding}


def _setting(key):
    """KEY as `SETTINGS` spells it (Python keywords spell clock-mhz clock_mhz)."""
    return str(key).replace("_", "-")


def configuration(settings):
    """The `Config` of `settings` ({KEY: value}, KEY from `SETTINGS`, values as the command
    line gives them or Python values): defaults filled in, a board's core and clock taken
    from it, everything checked.  Raises SweepError naming the setting."""
    from armsim.cpu import cores
    given = {}
    for key, value in settings.items():
        name = _setting(key)
        if name not in SETTINGS:
            raise SweepError(f"{key}: unknown setting (choose from {', '.join(SETTINGS)})")
        field, parse = SETTINGS[name]
        try:
            value = parse(value)
        except (KeyError, TypeError, ValueError):
            raise SweepError(f"{name}={value}: bad value") from None
        if field in given and given[field] != value:
            raise SweepError(f"{name}={value}: {field} is already {given[field]} in this "
                             f"configuration")
        given[field] = value
    board = given.get("board")
    if board is None:
        on_board = [k for k in _BOARD_ONLY if given.get(k) is not None]
        if on_board:
            raise SweepError(f"{', '.join(on_board)} describe a board's memory: give a board "
                             f"(see `armsim boards`)")
        config = Config(**given)
    else:
        try:
            board_config = boards.configure(
                board, given.get("clock_mhz"), {"flash": given.get("flash_wait_states")},
                given.get("arena"), given.get("weights"), given.get("caches", True),
                given.get("core"), given.get("stack"))
        except ValueError as e:
            raise SweepError(f"board={board}: {e}") from None
        config = Config(**dict(given, board=board_config.board, core=board_config.core,
                               clock_mhz=board_config.clock_mhz,
                               flash_wait_states=given.get("flash_wait_states"),
                               caches=given.get("caches", True)))
    if config.clock_mhz <= 0:
        raise SweepError(f"clock-mhz={config.clock_mhz:g}: the clock must be positive")
    if config.flash_wait_states is not None and config.flash_wait_states < 0:
        raise SweepError(f"flash-wait-states={config.flash_wait_states}: must be 0 or more")
    try:
        cores.core(config.core)
    except ValueError as e:
        raise SweepError(f"core={config.core}: {e}") from None
    try:
        Build(config.path, config.toolchain, config.core, config.single_rounding)
    except BuildError as e:
        raise SweepError(f"path={config.path}, toolchain={config.toolchain}"
                         f"{', rounding=single' if config.single_rounding else ''}: {e}") \
            from None
    return config


def parse_pairs(text):
    """`KEY=VALUE,KEY=VALUE` (a `Config.label`, or `armsim sweep --config`) -> {KEY: VALUE}."""
    pairs = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, sep, value = part.partition("=")
        if not sep or not key:
            raise SweepError(f"{text}: {part!r} is not KEY=VALUE")
        pairs[key] = value
    return pairs


def configurations(configs=None, axes=None):
    """The configurations of a sweep: each of `configs` (a list of {KEY: value}; default: one
    empty configuration) with every combination of `axes` ({KEY: [values]}), duplicates
    dropped, in order."""
    axes = {k: list(v) if isinstance(v, (list, tuple)) else [v] for k, v in (axes or {}).items()}
    out = {}
    for base in (configs or [{}]):
        if isinstance(base, str):
            base = parse_pairs(base)
        for combination in itertools.product(*axes.values()):
            settings = dict(base)
            for key, value in zip(axes, combination):
                clash = [k for k in base if _setting(k) == _setting(key)]
                if clash:
                    raise SweepError(f"{key} is both an axis and set in the configuration "
                                     f"{base}")
                settings[key] = value
            config = configuration(settings)
            out.setdefault(config, None)
    return list(out)


# --- models ----------------------------------------------------------------------------------

@dataclass
class ModelSource:
    """One model of a sweep: where its bytes come from and the label its rows carry."""
    label: str
    path: str = None
    data: bytes = None
    sha256: str = None

    def read(self):
        """The model's bytes; raises model.ModelError (one line) for a file it cannot read."""
        if self.data is not None:
            return self.data
        try:
            with open(self.path, "rb") as f:
                data = f.read(model_mod.MAX_MODEL_BYTES + 1)
        except OSError as e:
            raise model_mod.ModelError(f"{self.label}: cannot read ({e.strerror or e})") \
                from None
        if len(data) > model_mod.MAX_MODEL_BYTES:
            raise model_mod.ModelError(f"{self.label}: larger than {model_mod.MAX_MODEL_BYTES} "
                                       f"bytes, not a microcontroller model")
        return data

    def hash(self):
        """Set `sha256` from the bytes (a file is read in chunks); raises SweepError."""
        digest = hashlib.sha256()
        if self.data is not None:
            digest.update(self.data)
        else:
            try:
                with open(self.path, "rb") as f:
                    while chunk := f.read(CHUNK):
                        digest.update(chunk)
            except OSError as e:
                raise SweepError(f"{self.label}: cannot read ({e.strerror or e})") from None
        self.sha256 = digest.hexdigest()


def _is_model_file(path):
    if path.endswith(".tflite"):
        return True
    with open(path, "rb") as f:
        return f.read(8)[4:8] == b"TFL3"


def _named(name):
    """A model name, as `armsim profile NAME` resolves it (`armsim.api.load_model`)."""
    from armsim import api
    from armsim.data import modelgen
    directory = api.models_dir()
    if directory is not None and os.path.isfile(directory / name / "model.tflite"):
        return ModelSource(name, path=str(directory / name / "model.tflite"))
    if name in modelgen.EXAMPLES:
        return ModelSource(api.example_label(name), data=modelgen.EXAMPLES[name](seed=0))
    try:
        api.load_model(name)                    # raises the command line's one-line error
    except model_mod.ModelError as e:
        raise SweepError(f"{e} (nor a directory, glob or list of models)") from None
    raise SweepError(f"{name}: not a model")


def _expand(spec, found, lists, base=""):
    """Add the models `spec` names to `found` (key -> ModelSource): a .tflite file, a directory
    (its .tflite files, recursively), a glob, a list file (one of these per line, relative
    to the list's directory; # comments) or a model name."""
    raw = os.fspath(spec)
    text = os.path.join(base, raw)
    if os.path.isdir(text):
        matches = sorted(str(p) for p in Path(text).rglob("*.tflite") if p.is_file())
        if not matches:
            raise SweepError(f"{text}: no .tflite files in this directory")
        for match in matches:
            found.setdefault(os.path.realpath(match), ModelSource(match, path=match))
    elif glob.has_magic(text):
        matches = sorted(glob.glob(text, recursive=True))
        if not matches:
            raise SweepError(f"{text}: no files match")
        for match in matches:
            _expand(match, found, lists)
    elif os.path.isfile(text):
        try:
            is_model = _is_model_file(text)
        except OSError as e:
            raise SweepError(f"{text}: cannot read ({e.strerror or e})") from None
        if is_model:
            found.setdefault(os.path.realpath(text), ModelSource(text, path=text))
            return
        real = os.path.realpath(text)
        if real in lists:
            raise SweepError(f"{text}: a list of models that includes itself")
        lists.add(real)
        try:
            lines = Path(text).read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as e:
            raise SweepError(f"{text}: neither a .tflite model nor a list of models "
                             f"({getattr(e, 'strerror', None) or type(e).__name__})") from None
        for line in lines:
            line = line.split("#", 1)[0].strip()
            if line:
                _expand(line, found, lists, os.path.dirname(text))
    elif os.path.exists(text):
        raise SweepError(f"{text}: not a regular file, directory or glob")
    elif os.sep in raw or raw.endswith(".tflite"):
        raise SweepError(f"{text}: no such file")
    else:
        found.setdefault(f"name:{raw}", _named(raw))


def find_models(specs):
    """The models `specs` names: one or a list of paths, directories, globs, list files and
    model names (see `_expand`), .tflite bytes, `armsim.pipeline.model.Model`s, or a mapping
    {label: bytes or path}.  Raises SweepError when nothing matched."""
    if isinstance(specs, (str, os.PathLike, bytes, bytearray, model_mod.Model)):
        specs = [specs]
    found, lists = {}, set()
    if isinstance(specs, collections.abc.Mapping):
        for label, value in specs.items():
            if isinstance(value, (bytes, bytearray)):
                found[f"label:{label}"] = ModelSource(str(label), data=bytes(value))
            else:
                found[f"label:{label}"] = ModelSource(str(label), path=os.fspath(value))
    else:
        for k, spec in enumerate(specs):
            if isinstance(spec, (bytes, bytearray)):
                found[f"bytes:{k}"] = ModelSource(f"<bytes {k}>", data=bytes(spec))
            elif isinstance(spec, model_mod.Model):
                found[f"model:{k}"] = ModelSource(spec.path, data=spec.raw)
            else:
                _expand(spec, found, lists)
    if not found:
        shown = specs if isinstance(specs, collections.abc.Mapping) else list(specs)
        raise SweepError(f"no models matched {shown}")
    return list(found.values())


# --- one run -----------------------------------------------------------------------------------

_PROFILE_LOCK = threading.Lock()   # a Dask worker may run tasks in threads: one run at a time


def profile(data, label, config):
    """`armsim.api.profile` of model bytes `data` (named `label`) on `config`; raises
    ValueError with the command line's one-line message."""
    from armsim import api
    from armsim.cpu import machine
    with _PROFILE_LOCK:
        m = model_mod.parse(data, label)
        try:
            return api.profile(m, **config.profile_options())
        except ModuleNotFoundError as e:
            raise ValueError(f"{m.name}: no kernel port available on the {config.path} path "
                             f"({e.name})") from None
        except model_mod.ModelError:
            raise
        except (ValueError, machine.MemoryFault) as e:
            raise ValueError(f"{m.name}: {e}") from None


def _stages():
    from armsim.cpu import cores, machine
    return (*machine.STAGES, cores.NOT_SPLIT)


def _key(label, sha256, config):
    return {"model": label, "model_sha256": sha256, "config": config.label(),
            "armsim_version": VERSION, **asdict(config)}


def error_rows(label, sha256, config, message):
    """The one row of a run that failed: its key and its one-line error."""
    return [dict(_key(label, sha256, config), row="error",
                 error=" ".join(str(message).split()))]


def profile_rows(data, label, config):
    """The rows of one run: one per op and the totals, or one error row.  A failure of the
    model is a row, never an exception: a sweep goes on past it."""
    sha256 = hashlib.sha256(data).hexdigest()
    try:
        p = profile(data, label, config)
    except Exception as e:
        name = os.path.basename(label)
        message = str(e) if isinstance(e, ValueError) else f"{name}: {type(e).__name__}: {e}"
        return error_rows(label, sha256, config, message)
    key = _key(label, sha256, config)
    stages = _stages()
    rows = []
    for op in p["ops"]:
        row = dict(key, row="op", op_index=op["index"], op=op["op"], kernel=op["kernel"],
                   reference=op["reference"], types=op["types"],
                   output_shape=list(op["output_shape"]), simulated=op["simulated"],
                   macs=op["macs"], instructions=op["instructions"],
                   fitted_instructions=op["fitted_instructions"], cycles=op["cycles"],
                   cycles_min=op["cycles_min"], cycles_max=op["cycles_max"],
                   mnemonics=op["mnemonics"], fitted_mnemonics=op["fitted_mnemonics"],
                   stage_instructions={s: v["instructions"] for s, v in op["stages"].items()})
        row.update({f"stage_{s}": op["stages"].get(s, {}).get("cycles", 0) for s in stages})
        rows.append(row)
    total = p["total"]
    rows.append(dict(key, row="total", macs=total["macs"], instructions=total["instructions"],
                     fitted_instructions=total["fitted_instructions"], cycles=total["cycles"],
                     cycles_min=total["cycles_min"], cycles_max=total["cycles_max"],
                     latency_ms=total["latency_ms"], ops=total["ops"],
                     not_simulated_ops=total["not_simulated_ops"],
                     arena_bytes=p["arena_bytes"]))
    return rows


def _worker_rows(data, label, config):
    """`profile_rows` in a pool process or on a Dask worker: the pool or the cluster already
    runs a model per core, so the run forks no compile helpers of its own (`ARMSIM_JOBS`)."""
    os.environ["ARMSIM_JOBS"] = "1"
    return profile_rows(data, label, config)


def schema():
    """The results' columns (`armsim sweep`'s Parquet file)."""
    import pyarrow as pa
    counts = pa.map_(pa.string(), pa.int64())
    columns = [("model", pa.string()), ("model_sha256", pa.string()), ("config", pa.string()),
               ("armsim_version", pa.string())]
    types = {"core": pa.string(), "path": pa.string(), "toolchain": pa.string(),
             "clock_mhz": pa.float64(), "flash_wait_states": pa.int64(),
             "single_rounding": pa.bool_(), "board": pa.string(), "arena": pa.string(),
             "weights": pa.string(), "stack": pa.string(), "caches": pa.bool_()}
    columns += [(f.name, types[f.name]) for f in fields(Config)]
    columns += [("row", pa.string()), ("op_index", pa.int64()), ("op", pa.string()),
                ("kernel", pa.string()), ("reference", pa.bool_()), ("types", pa.string()),
                ("output_shape", pa.list_(pa.int64())), ("simulated", pa.bool_()),
                ("macs", pa.int64()), ("instructions", pa.int64()),
                ("fitted_instructions", pa.int64()), ("cycles", pa.int64()),
                ("cycles_min", pa.int64()), ("cycles_max", pa.int64())]
    columns += [(f"stage_{s}", pa.int64()) for s in _stages()]
    columns += [("mnemonics", counts), ("fitted_mnemonics", counts),
                ("stage_instructions", counts), ("latency_ms", pa.float64()),
                ("ops", pa.int64()), ("not_simulated_ops", pa.int64()),
                ("arena_bytes", pa.int64()), ("error", pa.string())]
    return pa.schema(columns)


_KEY = ("model_sha256", "config", "armsim_version")


def _table(rows):
    """Rows as a table of `schema()`, in a stable order: by model, configuration, op."""
    import pyarrow as pa
    table = pa.Table.from_pylist(rows, schema=schema())
    return _sorted(table)


def _sorted(table):
    return table.sort_by([("model", "ascending"), ("config", "ascending"),
                          ("armsim_version", "ascending"), ("op_index", "ascending")])


# --- the results file ------------------------------------------------------------------------

class Results:
    """The Parquet file and its journal (see the module's docstring).  Only one sweep writes
    a file at a time: the journal is locked while the sweep runs."""

    def __init__(self, output):
        from armsim.infra import output as output_mod
        self.path = os.fspath(output)
        try:
            output_mod.check(self.path)
        except output_mod.OutputError as e:
            raise SweepError(e.message) from None
        self.journal_path = self.path + ".journal"
        self.journal = None

    def __enter__(self):
        import fcntl
        try:
            self.journal = open(self.journal_path, "a+b")
        except OSError as e:
            raise SweepError(f"{self.journal_path}: cannot write ({e.strerror or e})") \
                from None
        try:
            fcntl.flock(self.journal, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self.journal.close()
            raise SweepError(f"{self.path}: another sweep is writing it (its journal "
                             f"{self.journal_path} is locked)") from None
        end = self.journal.seek(0, os.SEEK_END)
        if end:
            self.journal.seek(end - 1)
            if self.journal.read(1) != b"\n":
                self.journal.write(b"\n")          # end the line a kill cut short
        return self

    def __exit__(self, *exc):
        try:
            self.compact()
        finally:
            self.journal.close()

    def _stored(self):
        """The Parquet file's table, or None; raises SweepError for a file of another kind."""
        import pyarrow.parquet as pq
        if not os.path.exists(self.path):
            return None
        try:
            table = pq.read_table(self.path)
        except Exception as e:
            raise SweepError(f"{self.path}: not a readable Parquet file ({e})") from None
        missing = [c for c in (*_KEY, "row") if c not in table.column_names]
        if missing:
            raise SweepError(f"{self.path}: not an armsim sweep's results (no "
                             f"{', '.join(missing)} column)")
        return table

    def _journaled(self):
        """The rows of every complete line of the journal (a kill may cut the last one)."""
        self.journal.seek(0)
        rows = []
        for line in self.journal:
            if line.endswith(b"\n"):
                try:
                    rows += json.loads(line)
                except ValueError:                # JSON or UTF-8 cut short
                    continue
        return rows

    def finished(self):
        """The keys of the runs the file and the journal hold."""
        import pyarrow.compute as pc
        keys = {tuple(r[k] for k in _KEY) for r in self._journaled() if r["row"] != "op"}
        stored = self._stored()
        if stored is not None:
            ends = stored.filter(pc.not_equal(stored["row"], "op")).select(list(_KEY))
            keys.update(zip(*(ends[k].to_pylist() for k in _KEY)))
        return keys

    def add(self, rows):
        """Journal one run's rows (written and flushed before this returns)."""
        self.journal.write(json.dumps(rows).encode() + b"\n")
        self.journal.flush()

    def compact(self):
        """Fold the journal into the Parquet file (written whole, then renamed over the old
        one), then empty the journal."""
        import pyarrow as pa
        import pyarrow.compute as pc
        import pyarrow.parquet as pq
        from armsim.infra import output as output_mod
        new = self._journaled()
        if not new:
            self._forget_journal()
            return
        table = _table(new)
        stored = self._stored()
        if stored is not None:
            fresh = pa.array(sorted({_join(r[k] for k in _KEY) for r in new}), pa.string())
            old_keys = pc.binary_join_element_wise(*(stored[k] for k in _KEY), "\0")
            stored = stored.filter(pc.invert(pc.is_in(old_keys, value_set=fresh)))
            table = _sorted(pa.concat_tables([stored, table], promote_options="default"))
        try:
            output_mod.write(self.path, lambda f: pq.write_table(table, f))
        except output_mod.OutputError as e:
            raise SweepError(f"{e.message}; the finished runs are kept in "
                             f"{self.journal_path}") from None
        self._forget_journal()

    def _forget_journal(self):
        os.unlink(self.journal_path)

    def table(self, keys):
        """The rows of the runs `keys` from the Parquet file."""
        import pyarrow as pa
        import pyarrow.compute as pc
        stored = self._stored()
        if stored is None:
            return _table([])
        wanted = pa.array([_join(k) for k in keys], pa.string())
        joined = pc.binary_join_element_wise(*(stored[k] for k in _KEY), "\0")
        return stored.filter(pc.is_in(joined, value_set=wanted))


def _join(parts):
    return "\0".join(parts)


# --- executing runs --------------------------------------------------------------------------

@dataclass
class Run:
    """One model on one configuration, to be computed."""
    model: ModelSource
    config: Config

    def error(self, message):
        return error_rows(self.model.label, self.model.sha256, self.config, message)


def _in_process(runs, on_rows):
    for run in runs:
        try:
            data = run.model.read()
        except model_mod.ModelError as e:
            on_rows(run, run.error(e))
            continue
        on_rows(run, profile_rows(data, run.model.label, run.config))


def _in_pool(runs, jobs, on_rows):
    """Runs in a local pool of `jobs` processes, at most two per process queued.  A process
    that dies (killed, out of memory) breaks the pool: its runs then go again one at a time
    in a new pool, and the one whose process dies alone is an error row."""
    import concurrent.futures as cf
    import multiprocessing
    from concurrent.futures.process import BrokenProcessPool
    context = multiprocessing.get_context(START_METHOD)
    if START_METHOD == "forkserver":
        context.set_forkserver_preload(["armsim.api", "armsim.sweeps"])
    runs = iter(runs)
    suspects = collections.deque()
    inflight = {}
    pool = alone = None

    def submit(run):
        try:
            data = run.model.read()
        except model_mod.ModelError as e:
            on_rows(run, run.error(e))
            return
        inflight[pool.submit(_worker_rows, data, run.model.label, run.config)] = run

    try:
        while True:
            if pool is None:
                pool = cf.ProcessPoolExecutor(jobs, mp_context=context)
            if suspects:
                if not inflight:
                    alone = suspects.popleft()
                    submit(alone)
            else:
                alone = None
                for run in itertools.islice(runs, 2 * jobs - len(inflight)):
                    submit(run)
            if not inflight:
                if suspects:
                    continue
                pool.shutdown(wait=True)            # idle: its processes leave at once
                pool = None
                return
            done, _ = cf.wait(inflight, return_when=cf.FIRST_COMPLETED)
            crashed = []
            while done:
                for future in done:
                    run = inflight.pop(future)
                    try:
                        rows = future.result()
                    except BrokenProcessPool:
                        crashed.append(run)
                    else:
                        on_rows(run, rows)
                # a broken pool fails every run still in flight: collect them all
                done = cf.wait(inflight)[0] if crashed else ()
            if crashed:
                pool.shutdown(wait=True)
                pool = None
                if alone is not None:
                    on_rows(alone, alone.error(
                        f"{os.path.basename(alone.model.label)}: the process profiling it "
                        f"died (killed, out of memory or crashed)"))
                    alone = None
                else:
                    suspects.extend(crashed)
    finally:
        if pool is not None:                        # stopped early (an interrupt, an error)
            pool.shutdown(wait=False, cancel_futures=True)


def _on_cluster(runs, scheduler, on_rows):
    """Runs on the Dask cluster whose scheduler is at `scheduler` (or a `distributed.Client`),
    twice as many queued as its workers have threads.  Rows arrive as each future completes;
    Dask reruns the runs of a worker that dies elsewhere, and a run that kills workers
    repeatedly (`KilledWorker`) is an error row."""
    try:
        import distributed
    except ImportError:
        raise SweepError("a sweep on a cluster needs dask.distributed: pip install "
                         "'armsim[cluster]'") from None
    if isinstance(scheduler, distributed.Client):
        client, own = scheduler, False
    else:
        try:
            client, own = distributed.Client(scheduler, timeout="20s"), True
        except (OSError, TimeoutError, ValueError) as e:
            raise SweepError(f"scheduler {scheduler}: cannot connect ({e})") from None
    inflight = {}
    try:
        versions = client.run(_version)
        other = {w: v for w, v in versions.items() if v != VERSION}
        if other:
            worker, version = next(iter(other.items()))
            raise SweepError(f"worker {worker} runs armsim {version}, this process "
                             f"{VERSION}: install the same armsim on every worker")
        runs = iter(runs)
        limit = max(4, 2 * sum(client.nthreads().values()))
        pending = distributed.as_completed()

        def submit(batch):
            for run in batch:
                try:
                    data = run.model.read()
                except model_mod.ModelError as e:
                    on_rows(run, run.error(e))
                    continue
                future = client.submit(_worker_rows, data, run.model.label, run.config,
                                       pure=False)
                inflight[future] = run
                pending.add(future)

        submit(itertools.islice(runs, limit))
        for future in pending:
            run = inflight.pop(future)
            try:
                rows = future.result()
            except Exception as e:          # the task's own failures are rows already
                rows = run.error(f"{os.path.basename(run.model.label)}: "
                                 f"{type(e).__name__}: {e}")
            future.release()
            on_rows(run, rows)
            submit(itertools.islice(runs, limit - len(inflight)))
    finally:
        if inflight:                        # stopped early: the cluster drops their work
            client.cancel(list(inflight))
        if own:
            client.close()


class _Progress:
    """rich's progress bar on stderr: runs done of the total, rate, elapsed, ETA."""

    def __init__(self, total, show):
        self.bar = None
        if not show:
            return
        from rich.console import Console
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress, ProgressColumn,
                                   TextColumn, TimeElapsedColumn, TimeRemainingColumn)
        from rich.text import Text

        class Rate(ProgressColumn):
            """Runs per second since the sweep started."""
            def render(self, task):
                rate = task.completed / task.elapsed if task.elapsed else 0.0
                return Text(f"{rate:.2f} runs/s")

        self.bar = Progress(TextColumn("[bold]sweep[/]"), BarColumn(), MofNCompleteColumn(),
                            Rate(), TimeElapsedColumn(), TextColumn("ETA"),
                            TimeRemainingColumn(), TextColumn("{task.description}"),
                            console=Console(stderr=True))
        self.task = self.bar.add_task("", total=total)
        self.errors = 0

    def __enter__(self):
        if self.bar is not None:
            self.bar.start()
        return self

    def advance(self, rows):
        if self.bar is None:
            return
        self.errors += rows[0]["row"] == "error"
        self.bar.update(self.task, advance=1,
                        description=f"{self.errors} errors" if self.errors else "")

    def __exit__(self, *exc):
        if self.bar is not None:
            self.bar.stop()


@dataclass
class Outcome:
    """What a sweep did: its runs, how many it computed, and every run's rows."""
    models: int
    configs: int
    runs: int
    skipped: int
    computed: int
    table: object           # pyarrow.Table of the runs' rows

    def errors(self):
        """(model, config, error) of every error row."""
        import pyarrow.compute as pc
        bad = self.table.filter(pc.equal(self.table["row"], "error"))
        return list(zip(*(bad[c].to_pylist() for c in ("model", "config", "error"))))


def run(model_specs, configs=None, axes=None, output=None, jobs=None, scheduler=None,
        progress=None):
    """Profile every model of `model_specs` (see `find_models`) on every configuration of
    `configs` x `axes` (see `configurations`), in this process (`jobs=1`), a local pool of
    `jobs` processes (default: `ARMSIM_JOBS`, else the usable CPUs) or on the Dask cluster
    at `scheduler`.  With `output`, results go to that Parquet file and runs it holds are
    skipped.  `progress`: show the bar (default: when stderr is a terminal)."""
    from armsim.infra import precompile
    found = find_models(model_specs)
    configs = configurations(configs, axes)
    jobs = precompile.jobs() if jobs is None else int(jobs)
    if jobs < 1:
        raise SweepError(f"jobs={jobs}: give 1 (this process) or more")
    results = Results(output) if output is not None else None
    unique = {}                         # one run per configuration of identical bytes
    for model in found:
        model.hash()
        unique.setdefault(model.sha256, model)
    unique = list(unique.values())
    keys = [(m.sha256, c.label(), VERSION) for m in unique for c in configs]
    collected = []
    with results if results is not None else _Memory(collected) as store:
        finished = store.finished()
        todo = [Run(m, c) for m in unique for c in configs
                if (m.sha256, c.label(), VERSION) not in finished]
        if progress is None:
            import sys
            progress = sys.stderr.isatty()
        with _Progress(len(todo), progress) as bar:
            def on_rows(run_, rows):
                store.add(rows)
                bar.advance(rows)
            if scheduler is not None:
                _on_cluster(todo, scheduler, on_rows)
            elif jobs == 1:
                _in_process(todo, on_rows)
            else:
                _in_pool(todo, jobs, on_rows)
    table = results.table(keys) if results is not None else _table(collected)
    return Outcome(len(found), len(configs), len(keys), len(keys) - len(todo), len(todo),
                   table)


class _Memory:
    """The results of a sweep without an output file: kept in memory."""

    def __init__(self, rows):
        self.rows = rows

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        pass

    def finished(self):
        return set()

    def add(self, rows):
        self.rows.extend(rows)


def sweep(models, configs=None, *, output=None, jobs=None, scheduler=None, progress=None,
          **axes):
    """Profile `models` on every configuration and return the rows as a pandas DataFrame.

        armsim.sweep("models/", core=["cortex-m4", "cortex-m7"], path=["simd", "scalar"],
                     output="results.parquet")

    `models`: paths, directories, globs, list files, model names, .tflite bytes or a
    {label: bytes or path} mapping.  Configurations: the keyword axes (any `SETTINGS` key,
    clock-mhz spelt clock_mhz; a value or a list of values) give their product, crossed with
    `configs` (a list of {KEY: value} dicts or "KEY=VALUE,..." strings).  `output`: a
    Parquet file that keeps the results and lets a sweep resume; `jobs`: 1 runs in this
    process, more in a local process pool (default: `ARMSIM_JOBS`, else the usable CPUs);
    `scheduler`: a Dask scheduler address (or `distributed.Client`) to run on instead.
    One row per model x configuration x op, plus a totals row (or an error row) per model x
    configuration; the columns are `schema()`'s.  Raises SweepError on bad input."""
    return to_pandas(run(models, configs, axes, output, jobs, scheduler, progress).table)


def to_pandas(table):
    """Results as a DataFrame whose integer and boolean columns stay integers and booleans
    where the other rows' kinds leave them empty (pandas' nullable Int64 and boolean)."""
    import pandas as pd
    import pyarrow as pa
    return table.to_pandas(types_mapper={pa.int64(): pd.Int64Dtype(),
                                         pa.bool_(): pd.BooleanDtype()}.get)


# --- in-process latency for search loops -------------------------------------------------------

class Latency(NamedTuple):
    """What `armsim.latency` returns: the run's totals and each op's cycles."""
    latency_ms: float
    cycles: int
    instructions: int
    macs: int
    arena_bytes: int
    op_cycles: tuple


MEMO_SIZE = 65536               # results kept by `latency` (a few hundred bytes each)
_memo = collections.OrderedDict()
_memo_lock = threading.Lock()


@functools.lru_cache(maxsize=1024)
def _config_of(settings):
    return configuration(dict(settings))


@functools.lru_cache(maxsize=64)
def _example_bytes(name):
    from armsim.data import modelgen
    return modelgen.EXAMPLES[name](seed=0)


def _model_bytes(model):
    """(bytes, label) of a `latency` model argument, without parsing it."""
    from armsim import api
    from armsim.data import modelgen
    if isinstance(model, (bytes, bytearray)):
        return bytes(model), "<bytes>.tflite"
    if isinstance(model, model_mod.Model):
        return model.raw, model.path
    name = os.fspath(model)
    if os.path.exists(name) or os.sep in name or name.endswith(".tflite"):
        return ModelSource(name, path=name).read(), name
    directory = api.models_dir()
    if directory is not None and os.path.isfile(directory / name / "model.tflite"):
        path = str(directory / name / "model.tflite")
        return ModelSource(path, path=path).read(), path
    if name in modelgen.EXAMPLES:
        return _example_bytes(name), api.example_label(name)
    api.load_model(name)                        # raises the one-line error
    raise ValueError(f"{name}: not a model")


def latency(model, **settings):
    """The latency of `model` (a path, name, .tflite bytes or `armsim.pipeline.model.Model`) on one
    configuration (`SETTINGS` keys as keywords: core=, board=, path=, toolchain=, clock_mhz=,
    ...), computed in this process and remembered by the model's sha256 and configuration:
    a search loop asking again pays a hash and a look-up.  Raises ValueError (one line)."""
    data, label = _model_bytes(model)
    try:
        config = _config_of(tuple(sorted(settings.items())))
    except TypeError:           # an unhashable value: read (and refused) without the memo
        config = configuration(settings)
    key = (hashlib.sha256(data).digest(), config)
    with _memo_lock:
        if key in _memo:
            _memo.move_to_end(key)
            return _memo[key]
    p = profile(data, label, config)
    total = p["total"]
    result = Latency(total["latency_ms"], total["cycles"], total["instructions"],
                     total["macs"], p["arena_bytes"], tuple(op["cycles"] for op in p["ops"]))
    with _memo_lock:
        _memo[key] = result
        while len(_memo) > MEMO_SIZE:
            _memo.popitem(last=False)
    return result


__all__ = ["sweep", "latency", "Latency", "run", "Outcome", "SweepError", "SETTINGS", "Config",
           "configuration", "configurations", "find_models", "profile_rows", "schema", "VERSION"]
