"""TFLite Micro's reference PAD for int8 (reference_ops::PadImpl, pad.h).

The shape is extended to PadKernelMaxDimensionCount() = 5 dims (the case gives the 4-D
form; the plane dim is 1 with no padding), then every output element is either
the pad value (the output zero point) or the next input element:

    if (out_b < left_b_padding || out_b >= output_batch - right_b_padding || ... )
      *out_ptr++ = pad_value;
    else
      *out_ptr++ = *in_ptr++;

The ten comparisons short-circuit; each evaluated one is a CMP + conditional branch.
"""
from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import add, bcc, bl, cmp, ldrsb, pop_pc, push, strb, sub


@kernel(inline=True)
def _outside(m, v, left, end):
    """v < left || v >= end: two compare-and-branch pairs (the second skipped if the first
    is taken)."""
    cmp(m, v, left)
    bcc(m, v < left)
    if v < left:
        return True
    cmp(m, v, end)
    bcc(m, v >= end)
    return v >= end


@kernel
def pad_impl_s8(m, in_ptr, out_ptr, ob, oh, ow, od, lb, lh, lw, ld, rb, rh, rw, rd,
                pad_value):
    bl(m)
    push(m, 9)
    end_b = sub(m, ob, rb)
    end_h = sub(m, oh, rh)
    end_w = sub(m, ow, rw)
    end_d = sub(m, od, rd)
    for out_b in range(ob):
        for out_h in range(oh):
            for out_w in range(ow):
                for out_d in range(od):
                    pad = _outside(m, out_b, lb, end_b)
                    if not pad:
                        pad = _outside(m, 0, 0, 1)                  # the plane dimension
                    if not pad:
                        pad = _outside(m, out_h, lh, end_h)
                    if not pad:
                        pad = _outside(m, out_w, lw, end_w)
                    if not pad:
                        pad = _outside(m, out_d, ld, end_d)
                    if pad:
                        strb(m, out_ptr, pad_value)                 # *out_ptr++ = pad_value;
                    else:
                        strb(m, out_ptr, ldrsb(m, in_ptr))          # *out_ptr++ = *in_ptr++;
                        in_ptr += 1
                    out_ptr += 1
                    add(m, out_d, 1)
                    cmp(m, out_d + 1, od)
                    bcc(m, out_d + 1 < od)
                cmp(m, out_w + 1, ow)
                bcc(m, out_w + 1 < ow)
            cmp(m, out_h + 1, oh)
            bcc(m, out_h + 1 < oh)
        cmp(m, out_b + 1, ob)
        bcc(m, out_b + 1 < ob)
    pop_pc(m, 9)
    return 0


def run_reference(m, case, addr, tracer=None):
    """A case in the vectors' schema (input_dims, pre_pad, post_pad, pad_value)."""
    i, pre, post = case["input_dims"], case["pre_pad"], case["post_pad"]
    b, h, w, d = (i[k] for k in "nhwc")
    lb, lh, lw, ld = (pre[k] for k in "nhwc")
    rb, rh, rw, rd = (post[k] for k in "nhwc")
    run(pad_impl_s8, m, addr["input"], addr["output"], b + lb + rb, h + lh + rh, w + lw + rw,
        d + ld + rd, lb, lh, lw, ld, rb, rh, rw, rd, case["pad_value"], tracer=tracer)
    return ["tflite::reference_ops::PadImpl<int8_t>"]
