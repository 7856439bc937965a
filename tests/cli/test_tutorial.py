"""docs/tutorial.md never goes stale: every `$ armsim ...` block's output is what the
command prints today (docs/regen_tutorial.py rewrites them)."""
import importlib.util
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[2] / "docs"
_spec = importlib.util.spec_from_file_location("regen_tutorial", DOCS / "regen_tutorial.py")
regen = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(regen)

TEXT = (DOCS / "tutorial.md").read_text()
BLOCKS = list(regen.BLOCK.finditer(TEXT))


def test_tutorial_uses_the_teaching_commands():
    cmds = regen.commands(TEXT)
    for needed in ("armsim explain smlad", "armsim explain sxtb16", "armsim explain sxtab16",
                   "armsim explain pkhbt",
                   "armsim trace arm_s8_to_s16_unordered_with_offset"):
        assert any(c.startswith(needed) for c in cmds), needed
    widen = [c for c in cmds if c.startswith("armsim trace arm_s8_to_s16_unordered_with_offset")]
    assert any("--path scalar" in c for c in widen) and any("--path" not in c for c in widen)


@pytest.mark.parametrize("block", BLOCKS, ids=[b.group("command") for b in BLOCKS])
def test_output_is_current(block):
    stored = block.group("output")
    assert stored.strip(), "every command shows its output"
    assert regen.run_command(block.group("command")) == stored


def test_regenerate_detects_stale_output():
    block = next(b for b in BLOCKS if b.group("command") == "armsim explain smlad")
    snippet = block.group(0)
    stale = snippet.replace("APSR.Q unchanged", "APSR.Q set", 1)
    assert stale != snippet
    assert regen.regenerate(stale) == snippet
