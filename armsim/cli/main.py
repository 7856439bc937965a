"""The `armsim` command.  Each `cli/cmd_*.py` module contributes its commands (`COMMANDS`)."""
import importlib
import os
import pkgutil
import sys

from armsim.infra.startup import collector_paused

with collector_paused():
    import click

    from armsim import cli


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="armsim")
def main():
    """Cycle-approximate Cortex-M DSP simulator: a .tflite model's ops run as CMSIS-NN (int8,
    16x8, int4) and TFLite Micro's reference kernels, counted instruction by instruction."""


with collector_paused(freeze=True):          # this process keeps what it imported
    for _info in sorted(pkgutil.iter_modules(cli.__path__), key=lambda i: i.name):
        if _info.name.startswith("cmd_"):
            for _command in importlib.import_module(f"armsim.cli.{_info.name}").COMMANDS:
                main.add_command(_command)


def run():
    """The console script: `main`, then leave without tearing the interpreter down (freeing
    every loaded kernel and numba's state takes ~0.4 s after a warm run has finished)."""
    try:
        main()
        code = 0
    except SystemExit as done:
        code = done.code
    if not isinstance(code, int):
        if code is not None:
            print(code, file=sys.stderr)
        code = 0 if code is None else 1
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except OSError:            # a reader that went away (`armsim profile | head`)
            pass
    os._exit(code)


if __name__ == "__main__":
    run()
