"""Regenerate the command outputs shown in docs/tutorial.md.

Every fenced block of the form

    ```console
    $ armsim <arguments>
    <output>
    ```

holds a command and the output it printed.  `regenerate(text)` runs each command (in
process, through the same click group as the `armsim` executable, with a fixed terminal
width) and replaces the output; tests/cli/test_tutorial.py checks that this changes nothing.

    python docs/regen_tutorial.py          # rewrite docs/tutorial.md in place
    python docs/regen_tutorial.py --check  # exit 1 if any output is stale
"""
import os
import re
import shlex
import sys
from pathlib import Path

TUTORIAL = Path(__file__).resolve().parent / "tutorial.md"
BLOCK = re.compile(r"```console\n\$ (?P<command>[^\n]+)\n(?P<output>.*?)```", re.S)
WIDTH = "100"


def run_command(command):
    """Run one `armsim ...` command line; returns its output (stdout and stderr)."""
    from click.testing import CliRunner
    from armsim.cli.main import main
    argv = shlex.split(command)
    if argv[0] != "armsim":
        raise ValueError(f"tutorial commands start with armsim: {command!r}")
    env = {"COLUMNS": WIDTH, "TERM": "dumb", "NO_COLOR": "1"}
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        result = CliRunner().invoke(main, argv[1:], terminal_width=int(WIDTH))
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    if result.exception and not isinstance(result.exception, SystemExit):
        raise RuntimeError(f"{command!r} raised {result.exception!r}") from result.exception
    output = result.output
    if output and not output.endswith("\n"):
        output += "\n"
    return "\n".join(line.rstrip() for line in output.split("\n"))


def commands(text):
    return [m.group("command") for m in BLOCK.finditer(text)]


def regenerate(text):
    def replace(m):
        return f"```console\n$ {m.group('command')}\n{run_command(m.group('command'))}```"
    return BLOCK.sub(replace, text)


def main(argv):
    text = TUTORIAL.read_text()
    new = regenerate(text)
    if "--check" in argv:
        if new != text:
            print("docs/tutorial.md is stale: run python docs/regen_tutorial.py")
            return 1
        return 0
    TUTORIAL.write_text(new)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
