"""`armsim boards`: the board presets, their figures and where each comes from."""
import click

from armsim.data import boards


@click.command("boards")
@click.argument("name", required=False)
def boards_command(name):
    """List the board presets, or with NAME every figure of one board and its source."""
    from rich.console import Console
    from rich.table import Table
    con = Console(width=160)
    if name is None:
        t = Table(title="board presets (armsim profile MODEL --board NAME)")
        for col in ("board", "core", "MHz", "flash ws", "SRAM ws", "caches", "title"):
            t.add_column(col, justify="right" if col in ("MHz", "flash ws", "SRAM ws") else "left")
        for board in boards.BOARDS.values():
            config = boards.configure(board.name)
            mems = config.memory.memories
            caches = ", ".join(c.name for c in config.caches()) or "none"
            t.add_row(board.name, board.core, f"{board.clock_mhz:g}",
                      str(mems["flash"].wait_states), str(mems["sram"].wait_states), caches,
                      board.title)
        con.print(t)
        con.print("every figure and its source: armsim boards NAME; cycles priced on these "
                  "boards are for CMSIS-NN's DSP build (no MVE)")
        return
    try:
        board = boards.board_named(name)
    except ValueError as e:
        raise click.ClickException(str(e)) from None
    from rich.markup import escape
    t = Table(title=f"{board.title}: {boards.configure(board.name).describe()}")
    t.add_column("figure")
    t.add_column("value", overflow="fold")
    t.add_column("range", overflow="fold")
    t.add_column("source", overflow="fold")
    for figure, value, source, plausible in boards.cited_figures(board):
        cited = escape(source) if source else "[red]no source[/]"
        if plausible is not None:
            cited += escape(f". Range {plausible.describe()}: {plausible.basis}")
        t.add_row(figure, escape(str(value)), plausible.describe() if plausible else "", cited)
    con.print(t)
    caches = ", ".join(c.switch for c in boards.configure(board.name).caches())
    con.print(f"caches (--no-cache NAME): {caches or 'none'}.  Assumed figures: `armsim "
              f"profile --board {board.name}` reports the cycles at both ends of each range.")
    if board.notes:
        con.print(board.notes)


COMMANDS = [boards_command]
