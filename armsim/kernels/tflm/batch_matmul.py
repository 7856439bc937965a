"""TFLite Micro's reference BATCH_MATMUL for int8 (batch_matmul.cc BatchMatMulEval ->
reference_ops::BatchMatMul<int8_t, int32_t>, batch_matmul.h) and int16
(BatchMatMul<int16_t, int64_t>, `batch_matmul_s16`; cases of family batch_matmul_s16), and
the TransposeRowsColumns both TFLM builds run in Eval.

The Eval passes the (transposed) rhs first: inside the kernel "lhs" is the rhs tensor
[..., N, K] and "rhs" the lhs tensor [..., M, K] (its shape given as [..., K, M]):

    for b0, b1, b2 (broadcast batch dims of the 5-D extended shapes):
      for (j < M) for (i < N) {
        total = sum_k (rhs[K*i + k] + weights_offset) * (lhs[K*j + k] + input_offset);
        out[N*j + i] = clamp(MultiplyByQuantizedMultiplier(total, mult, shift) + out_offset);
      }

Before that, ReshapeToFlattenBatchDimsIfPossible folds an lhs batch dim into its rows when
the rhs has a 1 there (both ranks > 2); `reference_dims` applies it on the host.

There is no measured reference-kernel case: the instruction sequence (per MAC: two LDRSB,
two ADDs of the offsets, MLA, CMP, BNE; per output: the index arithmetic, a BL to
tflite::MultiplyByQuantizedMultiplier (kernels/tflm/common.py), the clamp, STRB) is written
from the C as gcc -O2 compiles such loops, not fitted.
"""
import math

from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import (adc, add, asr, bcc, bl, carry_of_add, cmp, ldr_sp, ldrsb, ldrsh, mla,
                            mov, mul, pop_pc, push, str_sp, strb, strh, sub, umull)
from armsim.kernels.minmax import max_lt, min_ge

from .common import MBQM, MultiplyByQuantizedMultiplier
from .multiply_s64 import MBQM64, MultiplyByQuantizedMultiplier64
from .transpose import run_transpose

NAME = "tflite::reference_ops::BatchMatMul<int8_t, int32_t>"
NAME_S16 = "tflite::reference_ops::BatchMatMul<int16_t, int64_t>"


def reference_dims(lhs_shape, rhs_shape):
    """The 5-D extended shapes the reference kernel sees: ("lhs" = the rhs tensor
    [..., N, K], "rhs" = the lhs tensor as [..., K, M]) after the batch flattening."""
    lhs = list(lhs_shape[:-2]) + [lhs_shape[-1], lhs_shape[-2]]      # SwapRowColumnDims
    rhs = list(rhs_shape)
    if len(rhs) > 2 and len(lhs) > 2 and rhs[-3] == 1:               # ReshapeToFlatten...
        r = len(lhs)
        lhs = lhs[:r - 3] + [lhs[r - 2], lhs[r - 3] * lhs[r - 1]]
        rhs = rhs[:-3] + [rhs[-2], rhs[-1]]
    return [1] * (5 - len(rhs)) + rhs, [1] * (5 - len(lhs)) + lhs


def _extent(shape, x):
    """batch_matmul::extent: 0 for a broadcast (size 1) dim, else the inner size."""
    return 0 if shape[x] == 1 else math.prod(shape[x + 1:])


@kernel
def batch_matmul(m, lhs, rhs, out, bd0, bd1, bd2, le0, le1, le2, re0, re1, re2, lhs_rows,
                 rhs_cols, accum_depth, input_offset, filter_offset, output_offset,
                 output_multiplier, output_shift, act_min, act_max):
    """`lhs` is the rhs tensor's data ([..., lhs_rows = N, K]), `rhs` the lhs tensor's."""
    push(m, 9)
    sub(m, 0, 0)
    for _ in range(8):                                     # shapes, params (by reference)
        ldr_sp(m)
    for _ in range(6):                                     # broadcast_dim / extent results
        str_sp(m)
    for b0 in range(bd0):
        for b1 in range(bd1):
            for b2 in range(bd2):
                ldr_sp(m)
                ldr_sp(m)
                lhs_ptr2 = lhs + b0 * le0 + b1 * le1 + b2 * le2
                rhs_ptr2 = rhs + b0 * re0 + b1 * re1 + b2 * re2
                mla(m, 0, 0, 0)                            # lhs_ptr2, rhs_ptr2, out_ptr
                mla(m, 0, 0, 0)
                out_ptr = out + ((b0 * bd1 * bd2) + b1 * bd2 + b2) * lhs_rows * rhs_cols
                mla(m, 0, 0, 0)
                cmp(m, rhs_cols, 0)
                bcc(m, rhs_cols <= 0)
                for j in range(rhs_cols):
                    cmp(m, lhs_rows, 0)
                    bcc(m, lhs_rows <= 0)
                    for i in range(lhs_rows):
                        ldr_sp(m)
                        ldr_sp(m)
                        mul(m, accum_depth, i)             # accum_depth * i
                        total = mov(m, 0)
                        cmp(m, accum_depth, 0)
                        bcc(m, accum_depth <= 0)
                        for k in range(accum_depth):
                            lhs_val = ldrsb(m, lhs_ptr2 + accum_depth * i + k)
                            rhs_val = ldrsb(m, rhs_ptr2 + accum_depth * j + k)
                            lhs_val = add(m, lhs_val, filter_offset)
                            rhs_val = add(m, rhs_val, input_offset)
                            total = mla(m, lhs_val, rhs_val, total)
                            cmp(m, k + 1, accum_depth)
                            bcc(m, k + 1 < accum_depth)
                        ldr_sp(m)
                        ldr_sp(m)
                        bl(m)                              # MultiplyByQuantizedMultiplier(...)
                        scaled = MultiplyByQuantizedMultiplier(m, total, output_multiplier,
                                                               output_shift)
                        scaled = add(m, scaled, output_offset)   # total_scaled += output_offset;
                        ldr_sp(m)
                        scaled = max_lt(m, scaled, act_min)      # std::max(..., act_min)
                        ldr_sp(m)
                        scaled = min_ge(m, scaled, act_max)      # std::min(..., act_max)
                        idx = mla(m, lhs_rows, j, i)             # lhs_rows * j + i
                        strb(m, out_ptr + idx, scaled)
                        cmp(m, i + 1, lhs_rows)
                        bcc(m, i + 1 < lhs_rows)
                    cmp(m, j + 1, rhs_cols)
                    bcc(m, j + 1 < rhs_cols)
                cmp(m, b2 + 1, bd2)
                bcc(m, b2 + 1 < bd2)
            cmp(m, b1 + 1, bd1)
            bcc(m, b1 + 1 < bd1)
        cmp(m, b0 + 1, bd0)
        bcc(m, b0 + 1 < bd0)
    add(m, 0, 0)
    pop_pc(m, 9)
    return 0


@kernel(inline=True)
def _add64(m, lo, hi, b_lo, b_hi):
    """int64 + int64: ADDS / ADC."""
    carry = carry_of_add(lo, b_lo)
    return add(m, lo, b_lo), adc(m, hi, b_hi, carry)


@kernel
def batch_matmul_s16(m, lhs, rhs, out, bd0, bd1, bd2, le0, le1, le2, re0, re1, re2, lhs_rows,
                     rhs_cols, accum_depth, input_offset, filter_offset, output_offset,
                     output_multiplier, output_shift, act_min, act_max):
    """BatchMatMul<int16_t, int64_t>: `batch_matmul`'s loops over int16 data with the int64
    AccumT: each operand plus its offset is an int64 (ADDS / ADC with the sign words), the
    64-bit product UMULL + MUL / MLA cross terms, ADDS / ADC into `total`; the 64-bit
    MultiplyByQuantizedMultiplier (kernels/tflm/multiply_s64.py); STRH."""
    push(m, 9)
    sub(m, 0, 0)
    for _ in range(8):                                     # shapes, params (by reference)
        ldr_sp(m)
    for _ in range(6):                                     # broadcast_dim / extent results
        str_sp(m)
    filter_offset_hi = asr(m, filter_offset, 31)           # the offsets as int64
    input_offset_hi = asr(m, input_offset, 31)
    for b0 in range(bd0):
        for b1 in range(bd1):
            for b2 in range(bd2):
                ldr_sp(m)
                ldr_sp(m)
                lhs_ptr2 = lhs + 2 * (b0 * le0 + b1 * le1 + b2 * le2)
                rhs_ptr2 = rhs + 2 * (b0 * re0 + b1 * re1 + b2 * re2)
                mla(m, 0, 0, 0)                            # lhs_ptr2, rhs_ptr2, out_ptr
                mla(m, 0, 0, 0)
                out_ptr = out + 2 * ((b0 * bd1 * bd2) + b1 * bd2 + b2) * lhs_rows * rhs_cols
                mla(m, 0, 0, 0)
                cmp(m, rhs_cols, 0)
                bcc(m, rhs_cols <= 0)
                for j in range(rhs_cols):
                    cmp(m, lhs_rows, 0)
                    bcc(m, lhs_rows <= 0)
                    for i in range(lhs_rows):
                        ldr_sp(m)
                        ldr_sp(m)
                        mul(m, accum_depth, i)             # accum_depth * i
                        lo = mov(m, 0)                     # AccumT total = 0;
                        hi = mov(m, 0)
                        cmp(m, accum_depth, 0)
                        bcc(m, accum_depth <= 0)
                        for k in range(accum_depth):
                            lhs_val = ldrsh(m, lhs_ptr2 + 2 * (accum_depth * i + k))
                            rhs_val = ldrsh(m, rhs_ptr2 + 2 * (accum_depth * j + k))
                            a_lo, a_hi = _add64(m, lhs_val, asr(m, lhs_val, 31), filter_offset,
                                                filter_offset_hi)   # lhs_val + filter_offset
                            b_lo, b_hi = _add64(m, rhs_val, asr(m, rhs_val, 31), input_offset,
                                                input_offset_hi)    # rhs_val + input_offset
                            cross = mla(m, a_hi, b_lo, mul(m, a_lo, b_hi))
                            p_lo, p_hi = umull(m, a_lo, b_lo)
                            p_hi = add(m, p_hi, cross)
                            lo, hi = _add64(m, lo, hi, p_lo, p_hi)  # total += ...
                            cmp(m, k + 1, accum_depth)
                            bcc(m, k + 1 < accum_depth)
                        ldr_sp(m)
                        ldr_sp(m)
                        bl(m)                              # MultiplyByQuantizedMultiplier(...)
                        scaled = MultiplyByQuantizedMultiplier64(m, lo, hi, output_multiplier,
                                                                 output_shift)
                        scaled = add(m, scaled, output_offset)   # total_scaled += output_offset;
                        ldr_sp(m)
                        scaled = max_lt(m, scaled, act_min)      # std::max(..., act_min)
                        ldr_sp(m)
                        scaled = min_ge(m, scaled, act_max)      # std::min(..., act_max)
                        idx = mla(m, lhs_rows, j, i)             # lhs_rows * j + i
                        strh(m, out_ptr + 2 * idx, scaled)
                        cmp(m, i + 1, lhs_rows)
                        bcc(m, i + 1 < lhs_rows)
                    cmp(m, j + 1, rhs_cols)
                    bcc(m, j + 1 < rhs_cols)
                cmp(m, b2 + 1, bd2)
                bcc(m, b2 + 1 < bd2)
            cmp(m, b1 + 1, bd1)
            bcc(m, b1 + 1 < bd1)
        cmp(m, b0 + 1, bd0)
        bcc(m, b0 + 1 < bd0)
    add(m, 0, 0)
    pop_pc(m, 9)
    return 0


def _is_s16(case):
    return case.get("family") == "batch_matmul_s16"


def run_batch_matmul(m, case, lhs, rhs, out, tracer=None):
    """reference_ops::BatchMatMul of the lhs data at `lhs` ([..., M, K]) and the rhs data at
    `rhs` ([..., N, K]); shapes from the case (`tflm_shapes`, else the 4-D dims)."""
    if "tflm_shapes" in case:
        lhs_shape, rhs_shape = case["tflm_shapes"]["lhs"], case["tflm_shapes"]["rhs"]
    else:
        lhs_shape = [case["input_lhs_dims"][d] for d in "nhwc"]
        rhs_shape = [case["input_rhs_dims"][d] for d in "nhwc"]
    kl, kr = reference_dims(lhs_shape, rhs_shape)          # kernel "lhs" (= rhs), "rhs" (= lhs)
    bd = [kl[x] if kl[x] == kr[x] else (kr[x] if kl[x] == 1 else kl[x]) for x in range(3)]
    fc = case["bmm_params"]["fc_params"]
    q = case["quant_params"]
    run(batch_matmul_s16 if _is_s16(case) else batch_matmul, m, rhs, lhs, out, *bd,
        *(_extent(kl, x) for x in range(3)), *(_extent(kr, x) for x in range(3)), kl[3], kr[4],
        kl[4], fc["input_offset"], fc["filter_offset"], fc["output_offset"], q["multiplier"],
        q["shift"], fc["activation"]["min"], fc["activation"]["max"], tracer=tracer)
    return [NAME_S16, MBQM64] if _is_s16(case) else [NAME, MBQM]


def eval_transposes(m, case, addr, tracer=None):
    """TFLM's Eval: TransposeRowsColumns of the rhs (not adj_y) and of the lhs (adj_x) into
    their persistent buffers; returns the (lhs, rhs) addresses the kernel then reads."""
    t = case.get("eval_transpose")
    lhs, rhs = addr["input"], addr["input2"]
    if not t:
        return lhs, rhs, []
    chain = []
    for which, field, buf in (("rhs", "input2", "rhs_transposed"),
                              ("lhs", "input", "lhs_transposed")):
        if t[which]:
            shape = t[which + "_shape"]
            perm = list(range(len(shape) - 2)) + [len(shape) - 1, len(shape) - 2]
            chain = chain or ["TransposeRowsColumns"]
            run_transpose(m, shape, perm, addr[field], addr[buf], tracer,
                          2 if _is_s16(case) else 1)
            if which == "rhs":
                rhs = addr[buf]
            else:
                lhs = addr[buf]
    return lhs, rhs, chain


def run_reference(m, case, addr, tracer=None):
    lhs, rhs, chain = eval_transposes(m, case, addr, tracer)
    return run_batch_matmul(m, case, lhs, rhs, addr["output"], tracer) + chain
