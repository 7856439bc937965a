"""`armsim sweep MODELS... -o results.parquet`: every model on every configuration, into one
Parquet file that a stopped sweep resumes (`armsim.sweeps`)."""
import click

SETTINGS_HELP = ("core=NAME, board=NAME|none, path=simd|scalar|reference, toolchain=gcc|"
                 "armclang, clock-mhz=F, flash-wait-states=N, dsp=on|off, rounding=single|double,"
                 " and with a board arena=MEMORY, weights=MEMORY, stack=MEMORY, caches=on|off")


def _values(texts):
    """Repeated options of comma-separated values -> one list."""
    return [v.strip() for text in texts for v in text.split(",") if v.strip()]


def _axes(cores, boards, paths, toolchains, settings):
    from armsim.sweeps import SweepError
    axes = {key: _values(given) for key, given in
            (("core", cores), ("board", boards), ("path", paths), ("toolchain", toolchains))
            if given}
    for text in settings:
        key, sep, values = text.partition("=")
        if not sep or not key or not _values([values]):
            raise SweepError(f"--set {text}: give KEY=VALUE[,VALUE...]")
        axes.setdefault(key, []).extend(_values([values]))
    return axes


def _listed(configs, config_file):
    """--config texts and the lines of --configs FILE (# comments)."""
    from armsim.sweeps import SweepError
    listed = list(configs)
    if config_file:
        try:
            with open(config_file, encoding="utf-8") as f:
                lines = f.read().splitlines()
        except (OSError, UnicodeDecodeError) as e:
            raise SweepError(f"{config_file}: cannot read "
                             f"({getattr(e, 'strerror', None) or type(e).__name__})") from None
        listed += [line.split("#", 1)[0].strip() for line in lines]
        listed = [text for text in listed if text]
    return listed


@click.command("sweep")
@click.argument("models", nargs=-1, required=True)
@click.option("-o", "--output", required=True, type=click.Path(),
              help="the results (Parquet); the runs it holds already are skipped")
@click.option("--core", "cores", multiple=True, metavar="NAME[,NAME...]",
              help="cores to price on (an axis of the product)")
@click.option("--board", "boards", multiple=True, metavar="NAME[,NAME...]",
              help="boards (`armsim boards`; none: no board)")
@click.option("--path", "paths", multiple=True, metavar="PATH[,PATH...]",
              help="builds: simd, scalar, reference")
@click.option("--toolchain", "toolchains", multiple=True, metavar="NAME[,NAME...]",
              help="gcc, armclang")
@click.option("--set", "settings", multiple=True, metavar="KEY=VALUE[,VALUE...]",
              help=f"any setting as one more axis: {SETTINGS_HELP}")
@click.option("--config", "configs", multiple=True, metavar="KEY=VALUE[,KEY=VALUE...]",
              help="one configuration (repeat for a list); each is crossed with the axes")
@click.option("--configs", "config_file", type=click.Path(),
              help="a file of configurations, one per line written as --config's")
@click.option("-j", "--jobs", type=click.IntRange(1),
              help="processes of the local pool; 1: this process [default: $ARMSIM_JOBS, "
                   "else the usable CPUs]")
@click.option("--scheduler", metavar="ADDRESS",
              help="run on the Dask distributed cluster of this scheduler (tcp://HOST:8786); "
                   "its workers need armsim installed")
def sweep(models, output, cores, boards, paths, toolchains, settings, configs, config_file,
          jobs, scheduler):
    """Profile every model on every configuration; one Parquet row per model x configuration
    x op, and a totals row (or an error row) per model x configuration.

    MODELS are .tflite files, directories (their .tflite files), globs ('runs/**/*.tflite'),
    files listing models one per line, or model names as `armsim profile` takes them.
    Configurations are the product of the axes (--core, --board, --path, --toolchain, --set)
    with each listed configuration (--config, --configs); default: cortex-m4, simd, gcc.
    A sweep that is stopped and started again skips the finished runs (keyed by the model's
    sha256, the configuration and armsim's version)."""
    from armsim import sweeps
    try:
        outcome = sweeps.run(models, _listed(configs, config_file),
                             _axes(cores, boards, paths, toolchains, settings), output, jobs,
                             scheduler)
    except sweeps.SweepError as e:
        raise click.ClickException(str(e)) from None
    errors = outcome.errors()
    click.echo(f"{output}: {outcome.runs:,} runs ({outcome.models:,} models x "
               f"{outcome.configs:,} configurations): {outcome.computed:,} profiled, "
               f"{outcome.skipped:,} already there, {len(errors):,} errors; "
               f"{outcome.table.num_rows:,} rows")
    shown = 10
    for model, config, error in errors[:shown]:
        click.echo(f"  error: {model} [{config}]: {error}", err=True)
    if len(errors) > shown:
        click.echo(f"  ... and {len(errors) - shown} more (the rows whose `row` is error)",
                   err=True)


COMMANDS = [sweep]
