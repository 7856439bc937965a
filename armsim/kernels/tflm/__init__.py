"""Ports of TensorFlow Lite Micro's reference kernels (reference_integer_ops), the third counted path.

One module per family with ``run_reference(m, case, addr, tracer) -> [function names]``; the
case dict is the vectors' schema (CMSIS-NN conventions: input_offset = -zero point,
output_offset = zero point), which is also what TFLM's params hold.  Each port follows the
code arm-none-eabi-gcc 12.2 (the measured toolchain) generates at -O2 -mcpu=cortex-m4
-mthumb -DNDEBUG for TFLM 90b983c's headers, block by block: the out-of-line kernels take
their shapes by reference (dims reloaded after each int8 store), AveragePool is inlined into
its Eval, tflite::MultiplyByQuantizedMultiplier (`common`) is a called function.  The Eval
glue around a kernel (GetEvalInput, GetTensorShape, the params structs: ~100-450
instructions per op in the measurements) is not part of these ports.
`quantization_util` has QuantizeMultiplier and friends for the model layer.
"""
