"""TFLite Micro's reference PAD for int8 and int16 (reference_ops::PadImpl<T>, pad.h).

The shape is extended to PadKernelMaxDimensionCount() = 5 dims (the case gives the 4-D
form; the plane dim is 1 with no padding), then every output element is either
the pad value (the output zero point) or the next input element:

    if (out_b < left_b_padding || out_b >= output_batch - right_b_padding || ... )
      *out_ptr++ = pad_value;
    else
      *out_ptr++ = *in_ptr++;

The ten comparisons short-circuit; each evaluated one is a CMP + conditional branch.
int16 (`elem` 2, pad value 0 or PADV2's constant) is the same structure with halfword
accesses (LDRSH, STRH).
"""
from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import add, bcc, bl, cmp, ldrsb, ldrsh, pop_pc, push, strb, strh, sub


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
def pad_impl(m, in_ptr, out_ptr, ob, oh, ow, od, lb, lh, lw, ld, rb, rh, rw, rd,
             pad_value, elem):
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
                    if pad and elem == 1:
                        strb(m, out_ptr, pad_value)                 # *out_ptr++ = pad_value;
                    elif pad:
                        strh(m, out_ptr, pad_value)
                    elif elem == 1:
                        strb(m, out_ptr, ldrsb(m, in_ptr))          # *out_ptr++ = *in_ptr++;
                    else:
                        strh(m, out_ptr, ldrsh(m, in_ptr))
                    if not pad:
                        in_ptr += elem
                    out_ptr += elem
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
    elem = case.get("elem", 1)        # int16 steps carry it; the int8 vectors' cases do not
    run(pad_impl, m, addr["input"], addr["output"], b + lb + rb, h + lh + rh, w + lw + rw,
        d + ld + rd, lb, lh, lw, ld, rb, rh, rw, rd, case["pad_value"], elem, tracer=tracer)
    return [f"tflite::reference_ops::PadImpl<int{8 * elem}_t>"]
