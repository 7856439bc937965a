"""`armsim explain` and `armsim trace`: the teaching commands."""
import click

from armsim import explain as _explain


@click.command("explain")
@click.argument("instr", required=False)
@click.option("--a", "a", metavar="X", help="first register operand (Rn, or Rm when it is the only one); hex or decimal")
@click.option("--b", "b", metavar="X", help="second register operand (Rm, or Rs for shifts)")
@click.option("--acc", metavar="X", help="accumulator: Ra, or the 64-bit RdHi:RdLo")
@click.option("--rot", metavar="N", help="rotation of the extend instructions (0, 8, 16, 24)")
@click.option("--shift", metavar="N", help="shift of PKHBT/PKHTB/SSAT/USAT")
@click.option("--sat", metavar="N", help="saturation width of SSAT/USAT/SSAT16/USAT16")
@click.option("--ge", metavar="BITS", help="APSR.GE bits for SEL (e.g. 0b0101)")
@click.option("--list", "list_", is_flag=True, help="list every instruction armsim implements")
def explain(instr, a, b, acc, rot, shift, sat, ge, list_):
    """Explain INSTR (e.g. SMLAD, SXTAB16): the manual's operation, a lane diagram and a
    worked example computed by armsim; try your own operands with --a/--b/--acc."""
    if list_ or not instr:
        click.echo(_explain.listing(), nl=False)
        return
    try:
        click.echo(_explain.explain(instr, a=a, b=b, acc=acc, rot=rot, shift=shift, sat=sat,
                                    ge=ge), nl=False)
    except _explain.ExplainError as e:
        raise click.ClickException(str(e)) from None


COMMANDS = [explain]
