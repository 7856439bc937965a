"""`armsim explain` and `armsim trace`: the teaching commands (armsim.analysis.explain,
armsim.analysis.trace)."""
import click

from armsim.analysis import explain as _explain
from armsim.analysis import trace as _trace
from armsim.cli.common import build, load_model
from armsim.cpu import machine
from armsim.errors import ExplainError, TraceError


@click.command("explain")
@click.argument("instr", required=False)
@click.option("--a", "a", metavar="X", help="first register operand (Rn, or Rm when it is the only one); hex or decimal")
@click.option("--b", "b", metavar="X", help="second register operand (Rm, or Rs for shifts)")
@click.option("--acc", metavar="X", help="accumulator: Ra, or the 64-bit RdHi:RdLo")
@click.option("--rot", metavar="N", help="rotation of the extend instructions (0, 8, 16, 24)")
@click.option("--shift", metavar="N", help="shift of PKHBT/PKHTB/SSAT/USAT")
@click.option("--sat", metavar="N", help="saturation width of SSAT/USAT/SSAT16/USAT16")
@click.option("--ge", metavar="BITS", help="APSR.GE bits for SEL (e.g. 0b0101)")
@click.option("--carry", metavar="C", help="APSR.C (0 or 1) for ADC/SBC")
@click.option("--lsb", metavar="N", help="lowest bit of the field of UBFX/SBFX/BFI")
@click.option("--width", metavar="N", help="width of the field of UBFX/SBFX/BFI")
@click.option("--list", "list_", is_flag=True, help="list every instruction armsim implements")
def explain(instr, a, b, acc, rot, shift, sat, ge, carry, lsb, width, list_):
    """Explain INSTR (e.g. SMLAD, SXTAB16): the manual's operation, a lane diagram and a
    worked example computed by armsim; try your own operands with --a/--b/--acc."""
    if list_ or not instr:
        click.echo(_explain.listing(), nl=False)
        return
    try:
        click.echo(_explain.explain(instr, a=a, b=b, acc=acc, rot=rot, shift=shift, sat=sat,
                                    ge=ge, carry=carry, lsb=lsb, width=width), nl=False)
    except ExplainError as e:
        raise click.ClickException(str(e)) from None


@click.command("trace")
@click.argument("kernel_name", metavar="KERNEL")
@click.option("--path", type=click.Choice(["simd", "scalar"]), default="simd", show_default=True,
              help="simd: CMSIS-NN with ARM_MATH_DSP; scalar: the plain-C lowering of the same work")
@click.option("--values", help="int8 inputs, comma-separated (e.g. 1,-2,3,-4)")
@click.option("--offset", default=0, show_default=True, type=int,
              help="int16 offset added while widening (the input offset, e.g. 128)")
@click.option("--out-ch", default=2, show_default=True, type=int,
              help="arm_nn_mat_mult_kernel_s8_s16: output channels")
@click.option("--cols", default=6, show_default=True, type=int,
              help="arm_nn_mat_mult_kernel_s8_s16: num_col_a (values per column)")
@click.option("--seed", default=0, show_default=True, type=int,
              help="arm_nn_mat_mult_kernel_s8_s16: seed of the weights and columns")
@click.option("--max-lines", default=None, type=int,
              help="show at most this many instructions (counts still cover all)")
@click.option("--start-at", metavar="MNEMONIC",
              help="start the listing 10 instructions before the first MNEMONIC (e.g. smlad)")
@click.option("--op", "op_index", type=int,
              help="with a .tflite model (or 'example' or a shared model name): the op to trace")
def trace(kernel_name, path, values, offset, out_ch, cols, seed, max_lines, start_at, op_index):
    """Trace KERNEL on a tiny problem: every instruction with operands and result (hex and
    lanes), the C statement it comes from, the memory written, and the counts of both paths.

    KERNEL: arm_s8_to_s16_unordered_with_offset, read_and_pad_reordered,
    arm_nn_mat_mult_kernel_s8_s16, a CMSIS-NN vector file (e.g. a conv case .json), or a
    model (.tflite, a shared model name, or 'example') with --op N."""
    b = build(path)
    try:
        if op_index is not None or kernel_name.endswith(".tflite"):
            if op_index is None:
                raise TraceError("a model needs --op N (the op index to trace)")
            model, _ = load_model(None if kernel_name == "example" else kernel_name)
            lines = _trace.model_lines(model, op_index, b, max_lines, start_at)
        elif kernel_name.endswith(".json"):
            lines = _trace.case_lines(kernel_name, b, max_lines, start_at)
        else:
            extra = {"out_ch": out_ch, "cols": cols, "seed": seed} \
                if kernel_name == "arm_nn_mat_mult_kernel_s8_s16" else {}
            if kernel_name == "arm_nn_mat_mult_kernel_s8_s16" and not (1 <= out_ch <= 16 and 1 <= cols <= 64):
                raise TraceError("--out-ch 1..16 and --cols 1..64 keep the trace readable")
            lines = _trace.problem_lines(kernel_name, b, values, offset, max_lines, extra,
                                         start_at)
    except (TraceError, machine.MemoryFault) as e:
        raise click.ClickException(str(e)) from None
    click.echo("\n".join(lines))


COMMANDS = [explain, trace]
