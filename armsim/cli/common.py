"""What the commands share: MODEL and its help, the build and board options parsed into a
`Build` (the edge: nothing below the commands sees a path or core name), the run with its
progress bar, and one-line failures.

MODEL is a .tflite file or a name: NAME/model.tflite in the models directory
`$ARMSIM_MODELS`, else an example armsim builds itself (`armsim.data.modelgen.EXAMPLES`), as
`armsim.api.load_model` resolves it; without MODEL, the small example model.  Every
problem is one line naming the file and the op or tensor, with a non-zero exit.
"""
import functools
import json
import os
import threading

import click

from armsim import api
from armsim.infra import output
from armsim.cpu import cores, machine
from armsim.data import boards, modelgen
from armsim.errors import BuildError, CaseError, ModelError, ProfileError
from armsim.pipeline import arena as arena_mod
from armsim.pipeline import prepare as prepare_mod
from armsim.pipeline import profiler
from armsim.pipeline.build import PATHS, TOOLCHAINS, Build

CORES = tuple(cores.CORES)
INPUT_HELP = ("one .npy per graph input, in order (repeat --input), or one .npz keyed by "
              "input name (default: seeded random)")


def _model_help():
    """The MODEL paragraph of each command's --help, listing the bundled examples."""
    examples = "\n".join(f"  {name:8s} {builder.__doc__.splitlines()[0].rstrip('.')}"
                         for name, builder in modelgen.EXAMPLES.items())
    return (f"MODEL is a .tflite file or a name: NAME/model.tflite in the models directory "
            f"${api.MODELS_ENV} if it is there, else one of the examples armsim builds itself "
            f"(seeded random weights, nothing downloaded; default: {api.DEFAULT_MODEL}):\n\n"
            f"\b\n{examples}")


MODEL_HELP = _model_help()


def fail(message):
    raise click.ClickException(message)


def build(path="simd", toolchain="gcc", core="cortex-m4", single_rounding=False):
    """The `Build` the options name, or one line saying which option is wrong."""
    try:
        return Build(path, toolchain, core, single_rounding)
    except BuildError as e:
        fail(str(e))


def load_model(model_arg):
    """(Model, prepared steps) for MODEL (see `armsim.api.load_model`; None: the example)."""
    try:
        m = api.load_model(model_arg)
        steps = prepare_mod.prepare(m)
    except ModelError as e:
        fail(str(e))
    return m, steps


def check_outputs(*paths):
    """Refuse unwritable output paths before the run, not after it."""
    for p in paths:
        if p:
            output.check(p)


def write_json(path, obj):
    output.write_text(path, json.dumps(obj, indent=1) + "\n")


def inputs(m, input_files):
    """The model's inputs read from --input files (None: the seeded random input)."""
    if not input_files:
        return None
    try:
        return profiler.load_inputs(input_files, m)
    except ProfileError as e:
        fail(str(e))


def console(stderr=False):
    """A terminal's own width; 130 columns when piped, so the per-op table stays readable."""
    import shutil

    from rich.console import Console
    return Console(stderr=stderr, width=max(130, shutil.get_terminal_size((130, 24)).columns))


class _LateProgress:
    """rich's progress bar on stderr, shown only when stderr is a terminal and the run is
    still going after `DELAY` seconds (compiling, or a long model): a warm run of a small
    model is over before then, without importing rich.progress (~60 ms of a 0.5 s run).
    `tick` runs in the run's thread, the bar is started from a timer thread: one lock."""
    DELAY = 0.4

    def __init__(self, label, total):
        self.label, self.total, self.done = label, total, 0
        self.bar = self.task = None
        self.lock = threading.Lock()
        self.console = console(stderr=True)
        self.timer = threading.Timer(self.DELAY, self._show)
        self.timer.daemon = True
        if self.console.is_terminal:
            self.timer.start()

    def _show(self):
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                                   TimeElapsedColumn)
        with self.lock:
            if self.timer is None:                      # the run ended meanwhile
                return
            self.bar = Progress(TextColumn(f"[bold]{self.label}[/]"), BarColumn(),
                                MofNCompleteColumn(), TextColumn("{task.description}"),
                                TimeElapsedColumn(), transient=True, console=self.console)
            self.task = self.bar.add_task("", total=self.total, completed=self.done)
            self.bar.start()

    def tick(self, step):
        with self.lock:
            self.done += 1
            if self.bar is not None:
                self.bar.update(self.task, completed=self.done,
                                description=f"op {step.index} {step.op}")

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.timer.cancel()
        with self.lock:
            self.timer = None
            if self.bar is not None:
                self.bar.stop()


def profile(m, steps, build, clock_mhz, flash_wait_states, inputs, label=None, board=None):
    """Run the model on `build`, with a progress bar on stderr when it is a terminal and the
    run takes a while (`_LateProgress`)."""
    name = os.path.basename(m.path)
    try:
        with _LateProgress(label or build.path, len(steps)) as progress:
            return profiler.run(m, build, clock_mhz, flash_wait_states, inputs, steps,
                                progress=progress.tick, board=board)
    except (ProfileError, machine.MemoryFault) as e:
        fail(f"{name}: {e}")
    except ModuleNotFoundError as e:
        fail(f"{name}: no kernel port available on the {build.path} path ({e.name})")
    except (CaseError, ValueError) as e:
        fail(f"{name}: {e}")


def arena(m, steps, build):
    try:
        return arena_mod.plan(m, steps, build)
    except ModuleNotFoundError as e:
        fail(f"{os.path.basename(m.path)}: no kernel port to size scratch buffers ({e.name})")


def toolchain_option(command):
    return click.option("--toolchain", type=click.Choice(TOOLCHAINS), default="gcc",
                        show_default=True)(command)


def path_option(paths=PATHS, **kwargs):
    return click.option("--path", type=click.Choice(paths), default="simd", show_default=True,
                        **kwargs)


def build_options(f):
    """--core, --toolchain, --clock-mhz, --flash-wait-states and the board's options; the
    command receives `board` (an `armsim.data.boards.Configuration`, or None) and `core`,
    `clock_mhz`, `flash_wait_states` resolved against it."""
    f = _board_options(f)
    f = click.option("--flash-wait-states", type=click.IntRange(0),
                     help="wait states per flash access (weights live in flash) "
                          "[default: the board's, else 0]")(f)
    f = click.option("--clock-mhz", type=click.FloatRange(min=0, min_open=True),
                     help="core clock [default: the board's, else 100]")(f)
    f = toolchain_option(f)
    f = click.option("--core", help=f"core cycle model ({', '.join(CORES)}) "
                                    f"[default: the board's, else cortex-m4]")(f)
    return f


def _memory_wait_states(ctx, param, values):
    """`--wait-states extram=8 --wait-states sram=1` -> (("extram", 8), ("sram", 1))."""
    out = []
    for value in values:
        name, _, number = value.partition("=")
        if not name or not number.isdigit():
            raise click.BadParameter(f"{value!r} is not MEMORY=N (N a whole number of wait "
                                     f"states)")
        out.append((name, int(number)))
    return tuple(out)


def _board_options(command):
    @functools.wraps(command)
    def resolved(board, sram_wait_states, wait_states, arena, stack, weights, no_caches,
                 no_cache, core, clock_mhz, flash_wait_states, **kwargs):
        config = None
        if board:
            try:
                config = boards.configure(board, clock_mhz,
                                          {"flash": flash_wait_states,
                                           "sram": sram_wait_states, **dict(wait_states)},
                                          arena, weights, not no_caches, core, stack, no_cache)
            except ValueError as e:
                fail(f"--board {board}: {e}")
            core, clock_mhz, flash_wait_states = config.core, config.clock_mhz, 0
        else:
            given = [name for name, v in (("--sram-wait-states", sram_wait_states),
                                          ("--wait-states", wait_states),
                                          ("--arena", arena), ("--stack", stack),
                                          ("--weights", weights),
                                          ("--no-caches", no_caches),
                                          ("--no-cache", no_cache)) if v]
            if given:
                fail(f"{', '.join(given)} describe a board's memory: give --board "
                     f"(see `armsim boards`)")
        return command(core=core or "cortex-m4", clock_mhz=clock_mhz or 100.0,
                       flash_wait_states=flash_wait_states or 0, board=config, **kwargs)
    for option in (
            click.option("--no-caches", is_flag=True,
                         help="with --board: disable every cache and flash accelerator"),
            click.option("--no-cache", metavar="CACHE", multiple=True,
                         help="with --board: disable one cache (repeatable; `armsim boards "
                              "NAME` names them, e.g. s-cache on ek-ra6m4, which the MLPerf "
                              "Tiny firmware enables and FSP's start-up leaves off)"),
            click.option("--weights", metavar="MEMORY",
                         help="with --board: the memory the weights live in [default: flash]"),
            click.option("--stack", metavar="MEMORY",
                         help="with --board: the memory the stack lives in [default: sram]"),
            click.option("--arena", metavar="MEMORY",
                         help="with --board: the memory the tensor arena lives in (e.g. dtcm, "
                              "extram) [default: sram]"),
            click.option("--wait-states", "wait_states", metavar="MEMORY=N", multiple=True,
                         callback=_memory_wait_states,
                         help="with --board: wait states of any of the board's memories "
                              "(repeatable, e.g. extram=8)"),
            click.option("--sram-wait-states", type=click.IntRange(0),
                         help="with --board: wait states per SRAM access"),
            click.option("--board", metavar="NAME",
                         help="price memory like this board (core, clock, wait states, "
                              "caches); `armsim boards` lists them")):
        resolved = option(resolved)
    return resolved


def cycles_label(builds, board):
    """Which builds and memory the cycles describe, for every table's caption."""
    memory = board.describe() if board else "no board: zero-wait-state memory"
    return "; ".join([b.describe() for b in builds] + [memory])
