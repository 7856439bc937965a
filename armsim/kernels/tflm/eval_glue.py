"""TFLite Micro's per-op Eval glue, as a counted model.

Every op's measured instruction count (../shared/models/*/measured.json, "from the call of
its Eval to its return") includes, besides the kernel, TFLM's glue: the Eval function's
own body (switch on type, filling the CMSIS-NN or reference param structs),
``tflite::micro::GetEvalInput/GetEvalOutput`` (each through
``MicroContextGetEvalTensor`` -> ``MicroInterpreterContext::GetEvalTensor``),
``GetTensorShape`` (a RuntimeShape whose dims are copied with ``memcpy``), scratch-buffer
lookups, and for the reference RESHAPE ``ElementCount``/``TfLiteTypeSizeOf``.

This module executes that glue on the machine, one call per function, each function a
straight-line block of the size the measurements give for it (``functions_top``, gcc -O2,
tflite-micro 90b983c; the figures are per call and cited below; each operator's own Eval
body and call counts are in its module, ``armsim.operators.<op>``, as an ``EvalGlue``).  The mnemonic mix
inside a block is a model (loads from the op's structs, stores, moves/adds, a compare and
branch, push/pop frame); the call structure (which functions run, how many times, how
many dims each shape copies through newlib's memcpy) follows the Eval code.
"""
from armsim.cpu import machine
from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import (bl, fitted_add, fitted_bcc, fitted_cmp, fitted_ldr_sp, fitted_mov,
                            fitted_str_sp, pop_pc, push)

from armsim.kernels.libc import memcpy

# Instructions per call of each glue function (measured functions_top / number of calls;
# M4 build, the M3 build where it differs).
GET_EVAL_INPUT = 16                 # GetEvalInput: 48 for 3 calls (conv), 16 for 1 (softmax)
GET_EVAL_OUTPUT = 5                 # GetEvalOutput: 5 per call
MICRO_CONTEXT_GET_EVAL_TENSOR = 4   # MicroContextGetEvalTensor: 16 for 4 calls
GET_EVAL_TENSOR = {True: 7, False: 8}   # MicroInterpreterContext::GetEvalTensor: 28 / 32 for 4
GET_TENSOR_SHAPE = 11               # GetTensorShape: 44 for 4 calls (+ memcpy of the dims)
GET_SCRATCH_BUFFER = 7              # MicroContextGetScratchBuffer 4 + ...::GetScratchBuffer 3

@kernel
def glue_function(m, size):
    """One called glue function of `size` instructions: BL (counted by the caller's
    block), PUSH, loads of struct fields, moves/adds, a compare-and-branch, stores, POP.
    Only the size is measured; the body's mix is fitted (no disassembly of TFLM's glue)."""
    bl(m)
    if size < 3:                         # a leaf too small for a frame: BL, BX-like return
        if size == 2:
            pop_pc(m, 1)
        return 0
    push(m, 2)
    body = size - 3                      # bl, push, pop counted
    k = 0
    while k < body:
        r = k % 8
        if r == 0 or r == 2 or r == 5:
            fitted_ldr_sp(m)
        elif r == 1 or r == 6:
            fitted_mov(m)
        elif r == 3:
            fitted_add(m)
        elif r == 4:
            fitted_cmp(m)
        else:
            if k + 1 < body:
                fitted_bcc(m)
            else:
                fitted_str_sp(m)
        k += 1
    pop_pc(m, 2)
    return 0


@kernel
def get_tensor_shape(m, scratch_sram, nbytes):
    """GetTensorShape: the function itself, then the RuntimeShape's dims copied by memcpy."""
    glue_function(m, GET_TENSOR_SHAPE)
    bl(m)
    memcpy(m, scratch_sram, scratch_sram, nbytes)
    return 0


def run_glue(m, op, glue, dims_of_shapes, scratch_sram, m4_build, tracer=None, n_inputs=None):
    """Execute the Eval glue of `op` (its operator's `EvalGlue` for the kernel kind that ran,
    or None: no glue modelled) on machine `m`.

    `n_inputs`: the input count of an Eval that builds one shape per input.  `m4_build`:
    TFLM compiled for the Cortex-M4 (simd and reference paths) rather than the Cortex-M3
    (scalar path); the glue's size differs slightly between the two.  `dims_of_shapes` lists
    the rank of each tensor shape the Eval builds (RuntimeShape's dims copied by memcpy: 4
    bytes per dim); `scratch_sram` is a 16-byte SRAM scratch address for those copies.
    Returns the glue function names executed."""
    if glue is None:
        return []
    inner = machine.in_region(m, "glue")                    # the "glue" stage
    try:
        return _run_glue(inner, op, glue, dims_of_shapes, scratch_sram, m4_build, tracer,
                         n_inputs)
    finally:
        machine.leave(m, inner)


def _run_glue(m, op, glue, dims_of_shapes, scratch_sram, m4_build, tracer, n_inputs):
    body = glue.body[0 if m4_build else 1]
    n_in, n_out, n_shapes, n_scratch = glue.calls
    if glue.shapes_per_input and n_inputs:      # one input access and shape per input
        n_in, n_shapes = n_inputs, n_inputs + 1
    names = []
    if body:
        run(glue_function, m, body, tracer=tracer)
        names.append(f"{op.lower()} Eval")
    for _ in range(n_in + n_out):
        run(glue_function, m, MICRO_CONTEXT_GET_EVAL_TENSOR, tracer=tracer)
        run(glue_function, m, GET_EVAL_TENSOR[bool(m4_build)], tracer=tracer)
    for _ in range(n_in):
        run(glue_function, m, GET_EVAL_INPUT, tracer=tracer)
    for _ in range(n_out):
        run(glue_function, m, GET_EVAL_OUTPUT, tracer=tracer)
    names.append("GetEvalInput/Output")
    for k in range(n_shapes):
        rank = dims_of_shapes[k % len(dims_of_shapes)] if dims_of_shapes else 4
        run(get_tensor_shape, m, scratch_sram, 4 * rank, tracer=tracer)
    if n_shapes:
        names.append("GetTensorShape")
    for _ in range(n_scratch):
        run(glue_function, m, GET_SCRATCH_BUFFER, tracer=tracer)
    return names
