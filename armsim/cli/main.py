"""The `armsim` command.  Each `cli/cmd_*.py` module contributes its commands (`COMMANDS`)."""
import importlib
import pkgutil

import click

from armsim import cli


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="armsim")
def main():
    """Cycle-approximate Cortex-M DSP simulator running CMSIS-NN int8 kernels."""


for _info in sorted(pkgutil.iter_modules(cli.__path__), key=lambda i: i.name):
    if _info.name.startswith("cmd_"):
        for _command in importlib.import_module(f"armsim.cli.{_info.name}").COMMANDS:
            main.add_command(_command)
