"""TFLM's reference FULLY_CONNECTED on int4 weights (kernels/fully_connected.cc): Prepare
requests a scratch buffer of one byte per weight; Eval unpacks the packed filter into it with
tflite::tensor_utils::UnpackDenseInt4IntoInt8 (tflite::micro::MakeUnpackedInt4Tensor) and runs
the int8 reference FullyConnected on the unpacked copy (kernels/tflm/fully_connected.py).

    for (int i = 0; i < num_elements / 2; i++) {
      int8_t byte = src_buffer[i];
      int8_t lower = static_cast<int8_t>(byte << 4) >> 4;
      int8_t higher = byte >> 4;
      dst_buffer[2 * i] = lower; dst_buffer[2 * i + 1] = higher;
    }
    if (num_elements % 2 != 0)
      dst_buffer[num_elements - 1] = static_cast<int8_t>(src_buffer[num_elements / 2] << 4) >> 4;

The unpacking loop is written from the C (LDRSB, SBFX, ASR, two STRB, the pointer and counter
updates, CMP/BNE); no measured TFLM build covers it.
"""
from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import add, asr, bcc, cmp, ldrsb, pop_pc, push, sbfx, strb

from . import fully_connected

NAME_UNPACK = "tflite::tensor_utils::UnpackDenseInt4IntoInt8"


@kernel
def UnpackDenseInt4IntoInt8(m, src_buffer, num_elements, dst_buffer):
    push(m, 2)
    pairs = asr(m, num_elements, 1)                   # num_elements / 2 (non-negative)
    cmp(m, pairs, 0)
    bcc(m, pairs <= 0)
    for i in range(pairs):
        byte = ldrsb(m, src_buffer + i)               # int8_t byte = src_buffer[i];
        strb(m, dst_buffer + 2 * i, sbfx(m, byte, 0, 4))       # lower
        strb(m, dst_buffer + 2 * i + 1, asr(m, byte, 4))       # higher
        add(m, i, 1)
        cmp(m, i + 1, pairs)
        bcc(m, i + 1 < pairs)
    odd = num_elements & 1
    cmp(m, odd, 0)
    bcc(m, odd == 0)
    if odd:
        byte = ldrsb(m, src_buffer + pairs)
        strb(m, dst_buffer + num_elements - 1, sbfx(m, byte, 0, 4))
    pop_pc(m, 2)
    return 0


def reference_buffer_size(case):
    """Prepare's scratch request: the unpacked filter, one byte per weight."""
    return case["filter_dims"]["n"] * case["output_dims"]["c"]


def run_reference(m, case, addr, tracer):
    if case["quant_params"]["per_channel"]:
        from armsim.errors import CaseError
        raise CaseError(f"{case.get('case', '?')}: FULLY_CONNECTED int4 reference is per-tensor "
                        "here (per-channel int4 is not ported)")
    run(UnpackDenseInt4IntoInt8, m, addr["packed_weights"], reference_buffer_size(case),
        addr["scratch"], tracer=tracer)
    chain = fully_connected.run_reference(
        m, {**case, "fc_params": {**case["fc_params"], "filter_offset": 0}},
        {**addr, "weights": addr["scratch"]}, tracer)
    return [NAME_UNPACK] + chain
