"""Hand-picked int8 convolution shapes that reach the code paths seeded random shapes seldom
do, measured with tools/measure (the real CMSIS-NN built by gcc 12.2 -O2, on emulated M4 / M3):
arm_nn_mat_mult_nt_t_s8 with 16 + 4 + single columns, an odd lhs row and an odd rhs row,
positive and zero output shifts (the requantization's other branches), a NULL bias; the
im2col path with rhs_cols % 4 left-overs, a left-over output column, a single output pixel,
grouped and 1xN with positive shifts.  Data are seeded random.

    cd <repo with tools/measure> && PYTHONPATH=.:<armsim repo> python <armsim repo>/tools/conv_port_cases.py \
        --out <armsim repo>/tests/data/measured/conv_port
"""
import argparse
import sys
import time
from pathlib import Path

import numpy as np

from tools.measure.builds import CMSIS_NN_COMMIT
from tools.measure.families import by_family
from tools.measure.measure import DEFAULT_BUILDS, measure_case
from tools.measure.random_cases import DESCRIPTION, dumps, oracle_check

# name: (input n h w c, kernel h w, output c, stride h w, padding h w, dilation h w, groups,
#        shift range [lo, hi], NULL bias)
SHAPES = {
    "1x1_fast_c37_oddrows_oddch": ((1, 3, 3, 37), (1, 1), 7, (1, 1), (0, 0), (1, 1), 1, (-3, 2), False),
    "1x1_fast_c16_nullbias": ((1, 5, 1, 16), (1, 1), 5, (1, 1), (0, 0), (1, 1), 1, (-6, 0), True),
    "1x1_fast_c20_posshift": ((1, 2, 4, 20), (1, 1), 4, (1, 1), (0, 0), (1, 1), 1, (0, 3), False),
    "1x1_fast_c51_mixed": ((1, 3, 1, 51), (1, 1), 6, (1, 1), (0, 0), (1, 1), 1, (-2, 2), False),
    "1x1_fast_1x1x1x1": ((1, 1, 1, 1), (1, 1), 1, (1, 1), (0, 0), (1, 1), 1, (-1, 1), False),
    "1x1_strided_c18": ((1, 5, 5, 18), (1, 1), 3, (2, 2), (0, 0), (1, 1), 1, (-4, 1), False),
    "im2col_c5_oddpix_posshift": ((1, 3, 3, 5), (3, 3), 5, (1, 1), (1, 1), (1, 1), 1, (-2, 2), False),
    "im2col_rhs3": ((1, 2, 5, 1), (1, 3), 3, (1, 1), (0, 1), (1, 1), 1, (-3, 1), False),
    "im2col_one_pixel": ((1, 3, 3, 6), (3, 3), 9, (1, 1), (0, 0), (1, 1), 1, (-5, 1), False),
    "im2col_nullbias_dilated": ((1, 6, 6, 3), (2, 2), 4, (1, 2), (1, 0), (2, 2), 1, (-6, 0), True),
    "1xn_posshift": ((1, 1, 9, 8), (1, 3), 5, (1, 1), (0, 1), (1, 1), 1, (0, 2), False),
    "grouped_posshift": ((1, 4, 4, 6), (2, 2), 9, (1, 1), (1, 1), (1, 1), 3, (-1, 2), False),
}


def conv_out(extent, kernel, stride, pad, dilation):
    return (extent + 2 * pad - ((kernel - 1) * dilation + 1)) // stride + 1


def body(spec, rng):
    (n, ih, iw, ic), (kh, kw), oc, (sh, sw), (ph, pw), (dh, dw), groups, (slo, shi), null = spec
    oh, ow = conv_out(ih, kh, sh, ph, dh), conv_out(iw, kw, sw, pw, dw)
    fc = ic // groups
    ints = lambda lo, hi, k: [int(v) for v in rng.integers(lo, hi + 1, k)]  # noqa: E731
    return {
        "groups": groups,
        "input_dims": {"n": n, "h": ih, "w": iw, "c": ic},
        "filter_dims": {"n": oc, "h": kh, "w": kw, "c": fc},
        "output_dims": {"n": n, "h": oh, "w": ow, "c": oc},
        "conv_params": {"input_offset": int(rng.integers(-127, 129)),
                        "output_offset": int(rng.integers(-128, 128)),
                        "stride": {"h": sh, "w": sw}, "padding": {"h": ph, "w": pw},
                        "dilation": {"h": dh, "w": dw},
                        "activation": {"min": -128, "max": 127}},
        "bias_is_null": null,
        "input": ints(-128, 127, n * ih * iw * ic),
        "weights": ints(-127, 127, oc * kh * kw * fc),
        "bias": [0] * oc if null else ints(-5000, 5000, oc),
        "output_mult": ints(1 << 30, (1 << 31) - 1, oc),
        "output_shift": ints(slo, shi, oc),
    }


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, default=25)
    ap.add_argument("--builds", default=",".join(DEFAULT_BUILDS))
    args = ap.parse_args(argv)
    conv = by_family()["conv"]
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for index, (name, spec) in enumerate(SHAPES.items()):
        t0 = time.time()
        b = body(spec, np.random.default_rng([args.seed, index]))
        dispatched = conv.dispatch({**b, "family": "conv"})
        case = {"schema_version": 1, "case": f"conv_port_{name}_s{args.seed}",
                "family": "conv", "function": "arm_convolve_wrapper_s8",
                "functions_validated": ["arm_convolve_wrapper_s8", dispatched],
                "source": {"repository": "ARM-software/CMSIS-NN", "commit": CMSIS_NN_COMMIT,
                           "kind": "measured", "description": DESCRIPTION.replace(
                               "Shapes and data are random (seeded)",
                               "Shapes are hand-picked (tools/conv_port_cases.py), data random (seeded)"),
                           "data_seed": [args.seed, index],
                           "generator": f"tools/conv_port_cases.py --seed {args.seed}"},
                "wrapper_dispatch": dispatched}
        case.update(b)
        res = measure_case(case, args.builds.split(","))
        for build, m in res["measured"].items():
            if m["kernel_chain"][1] != dispatched:
                raise RuntimeError(f"{name}: {build} dispatched to {m['kernel_chain'][1]}")
        case.update(res["outputs"])
        ok = oracle_check(case)
        if ok is False:
            raise RuntimeError(f"{name}: the compiled kernel's output differs from armsim's oracle")
        case["source"]["description"] += (" output_ref also equals armsim's numpy oracle "
                                          "(armsim/kernels/oracle*.py)." if ok else
                                          " No independent oracle was run on this case.")
        case["measured"] = res["measured"]
        (out / f"{case['case']}.json").write_text(dumps(case))
        print(f"{case['case']:50s} " + " ".join(f"{k} {v['instructions']:7d}"
                                                for k, v in case["measured"].items())
              + f"  {time.time() - t0:.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
