"""How fast armsim answers a hardware-aware architecture search: models per second in one
process, in the local process pool and on a Dask LocalCluster of 1, 2 and 4 workers, and the
per-call latency of `armsim.latency` once a candidate has been profiled.

    python benchmarks/bench_sweep.py [--limit N] [--modes process,pool,cluster1,cluster2,cluster4]
                                     [--jobs J] [--json FILE]

The search space: MobileNetV2-like candidates built with `armsim.data.modelgen` (inverted
residual blocks: 1x1 expansion, depthwise KxK, linear 1x1 projection, residual ADD where the
shape allows), every combination of width multiplier, blocks per stage, depthwise kernel,
input resolution and expansion ratio (`SPACE`: 288 models), each on three cores (`CORES`).
--limit N takes every k-th candidate so N remain (for a quick look).  Kernels are compiled
before anything is timed (`warm_up`); each mode then sweeps the whole space into a fresh
results file.  A mode's time includes starting its processes (the pool's, the cluster's
workers) and their loading the compiled kernels; the cluster's own start is reported apart.
The machine may be shared: each mode also reports the CPU seconds its processes spent per
run and the load average while it ran.  No thresholds: figures only.
"""
import argparse
import itertools
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import armsim  # noqa: E402
from armsim.data import modelgen, sweeps  # noqa: E402

CORES = ("cortex-m4", "cortex-m7", "cortex-m33")
WIDTHS = (0.25, 0.35, 0.5, 0.75)
DEPTHS = (1, 2, 3)                  # blocks per stage, at most MobileNetV2's
KERNELS = (3, 5)                    # depthwise kernel
RESOLUTIONS = (32, 48, 64, 96)
EXPANSIONS = (3, 4, 6)
SPACE = list(itertools.product(WIDTHS, DEPTHS, KERNELS, RESOLUTIONS, EXPANSIONS))
# MobileNetV2's first five stages: (output channels, blocks, first block's stride)
STAGES = ((16, 1, 1), (24, 2, 2), (32, 3, 2), (64, 4, 2), (96, 3, 1))
ACTIVATION_SCALE = 0.05


def _channels(value):
    """Channels rounded to a multiple of 8, as MobileNetV2's width multiplier does."""
    return max(8, int(value + 4) // 8 * 8)


def _conv(g, x, channels, kernel=1, stride=1, activation="RELU6", name=None):
    fan_in = kernel * kernel * g.shape(x)[3]
    return g.conv2d(x, channels, (kernel, kernel), stride=(stride, stride), padding="SAME",
                    activation=activation, name=name,
                    out_zero_point=-128 if activation != "NONE" else 0,
                    **g.calibrated(x, fan_in, channels, ACTIVATION_SCALE))


def candidate(width, depth, kernel, resolution, expansion, seed=0):
    """One MobileNetV2-like candidate's .tflite bytes."""
    g = modelgen.Graph(seed=seed, description="bench_sweep MobileNetV2-like candidate")
    x = g.input((1, resolution, resolution, 3), scale=1 / 255, zero_point=-128, name="input")
    x = _conv(g, x, _channels(32 * width), kernel=3, stride=2, name="stem")
    for s, (channels, blocks, stride) in enumerate(STAGES):
        out = _channels(channels * width)
        for b in range(min(depth, blocks)):
            name = f"stage{s}/block{b}"
            step = stride if b == 0 else 1
            y = x
            if s > 0:                                   # the first stage does not expand
                y = _conv(g, y, g.shape(x)[3] * expansion, name=f"{name}/expand")
            c = g.shape(y)[3]
            y = g.depthwise_conv2d(y, (kernel, kernel), stride=(step, step), padding="SAME",
                                   activation="RELU6", out_zero_point=-128,
                                   name=f"{name}/depthwise",
                                   **g.calibrated(y, kernel * kernel, c, ACTIVATION_SCALE))
            y = _conv(g, y, out, activation="NONE", name=f"{name}/project")
            if step == 1 and g.shape(x) == g.shape(y):
                y = g.add(x, y, name=f"{name}/add")
            x = y
    n, h, w, c = g.shape(x)
    x = g.average_pool2d(x, (h, w), padding="VALID", name="avgpool")
    x = g.reshape(x, (1, c), shape_option=False, name="flatten")
    x = g.fully_connected(x, 10, name="fc", **g.calibrated(x, c, None, 0.15))
    g.output(g.softmax(x, name="softmax"))
    return g.build()


def space(limit=None):
    """{label: bytes} of the search space (every k-th candidate when `limit` is given)."""
    points = SPACE
    if limit and limit < len(points):
        points = points[::len(points) // limit][:limit]
    return {f"w{w}-d{d}-k{k}-r{r}-e{e}.tflite": candidate(w, d, k, r, e, seed=i)
            for i, (w, d, k, r, e) in enumerate(points)}


def warm_up(models, jobs):
    """Compile every kernel the space reaches, untimed: the whole space once on one core
    (the cores only price the same run; which kernels a candidate compiles depends on its
    channel counts, so no smaller sample is sure to reach them all)."""
    armsim.sweep(models, jobs=jobs, core=CORES[0], progress=sys.stderr.isatty())


def tree_cpu_seconds():
    """CPU seconds of this process and its descendants, alive or reaped (the machine may be
    shared: CPU time per run is what a sweep costs whatever else runs)."""
    import psutil                                # a dependency of dask.distributed
    me = psutil.Process()
    total = 0.0
    for process in [me, *me.children(recursive=True)]:
        try:
            t = process.cpu_times()
        except psutil.NoSuchProcess:
            continue
        total += t.user + t.system + t.children_user + t.children_system
    return total


def timed_sweep(models, **where):
    """(wall seconds, CPU seconds, runs) of a whole sweep of `models` x `CORES` into a fresh
    results file."""
    with tempfile.TemporaryDirectory(prefix="bench-sweep-") as directory:
        cpu, start = tree_cpu_seconds(), time.perf_counter()
        outcome = sweeps.run(models, axes={"core": list(CORES)},
                             output=os.path.join(directory, "results.parquet"),
                             progress=sys.stderr.isatty(), **where)
        seconds, cpu = time.perf_counter() - start, tree_cpu_seconds() - cpu
    errors = outcome.errors()
    if errors:
        raise SystemExit(f"{len(errors)} runs failed, e.g. {errors[0]}")
    return seconds, cpu, outcome.runs


def cluster_sweep(models, workers):
    """(cluster start seconds, `timed_sweep`) on a LocalCluster of `workers` worker processes
    of one thread each."""
    import distributed
    start = time.perf_counter()
    with distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        started = time.perf_counter() - start
        return started, timed_sweep(models, scheduler=cluster.scheduler_address)


def latency_calls(models, calls=2000):
    """(first call s, warm call µs: median over `calls`) of `armsim.latency` in this process:
    a candidate it has not been asked about (the kernels are compiled), then the same again."""
    data = next(iter(models.values()))
    start = time.perf_counter()
    armsim.latency(data, core=CORES[1])
    first = time.perf_counter() - start
    times = []
    for _ in range(calls):
        t = time.perf_counter()
        armsim.latency(data, core=CORES[1])
        times.append(time.perf_counter() - t)
    return first, statistics.median(times) * 1e6


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=int, help="take only N candidates of the space")
    parser.add_argument("--modes", default="process,pool,cluster1,cluster2,cluster4")
    parser.add_argument("--jobs", type=int, help="processes of the local pool "
                                                  "[default: the usable CPUs]")
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args()
    models = space(args.limit)
    print(f"search space: {len(models)} MobileNetV2-like candidates x {len(CORES)} cores "
          f"({', '.join(CORES)}) = {len(models) * len(CORES)} runs; os.cpu_count() "
          f"{os.cpu_count()}", flush=True)
    t = time.perf_counter()
    warm_up(models, args.jobs)
    print(f"warm-up (compiling, then the space once on {CORES[0]}; untimed): "
          f"{time.perf_counter() - t:.1f} s", flush=True)
    figures = {"models": len(models), "cores": list(CORES), "modes": {}}
    for mode in args.modes.split(","):
        load = os.getloadavg()[0]
        started = None
        if mode == "process":
            seconds, cpu, runs = timed_sweep(models, jobs=1)
        elif mode == "pool":
            seconds, cpu, runs = timed_sweep(models, jobs=args.jobs)
        elif mode.startswith("cluster"):
            started, (seconds, cpu, runs) = cluster_sweep(models, int(mode[len("cluster"):]))
        else:
            raise SystemExit(f"unknown mode {mode!r}")
        load = (load + os.getloadavg()[0]) / 2
        figures["modes"][mode] = {"seconds": seconds, "runs": runs, "cpu_seconds": cpu,
                                  "runs_per_s": runs / seconds,
                                  "models_per_s": runs / seconds / len(CORES),
                                  "cluster_start_s": started, "load_average": load}
        extra = f"; cluster start {started:.1f} s apart" if started is not None else ""
        print(f"{mode:9s} {runs} runs in {seconds:6.1f} s: {runs / seconds:5.2f} runs/s = "
              f"{runs / seconds / len(CORES):5.2f} models/s x {len(CORES)} cores; CPU "
              f"{cpu / runs:.3f} s/run; load average {load:.1f}{extra}", flush=True)
    first, warm = latency_calls(models)
    figures["latency"] = {"first_call_s": first, "warm_call_us": warm}
    print(f"armsim.latency: first call on a candidate {first * 1e3:.0f} ms (profiled), then "
          f"{warm:.1f} µs per call (median of 2000, remembered by sha256 + configuration)")
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1) + "\n")


if __name__ == "__main__":
    main()
