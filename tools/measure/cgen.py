"""Small helpers that write a case's data and parameter structs as C."""
from dataclasses import dataclass, field

CTYPES = {"int8": "int8_t", "int16": "int16_t", "int32": "int32_t", "int64": "int64_t",
          "uint32": "uint32_t", "uint8": "uint8_t", "int": "int"}
SIZES = {"int8": 1, "int16": 2, "int32": 4, "int64": 8, "uint32": 4, "uint8": 1}


class CaseError(ValueError):
    """The case cannot be turned into a call: one line naming the case and the field."""


@dataclass
class Output:
    """An array the counted call writes, read back after it (name of the C array)."""
    symbol: str
    dtype: str
    length: int
    field: str = "output_ref"


@dataclass
class Harness:
    """A generated C (or C++) harness: its source, the entry point it counts and what it writes."""
    source: str
    entry: str
    outputs: list = field(default_factory=list)
    also: tuple = ()           # further entry points harness_validate(k) calls (uncounted)
    language: str = "c"


def _lit(v, dtype):
    v = int(v)
    if dtype == "int64":
        return f"{v}LL"
    if dtype == "int32" and v == -(1 << 31):
        return "(-2147483647 - 1)"
    if dtype == "uint32":
        return f"{v}u"
    return str(v)


def array(name, dtype, values, const=True, align=4, length=None):
    """`static [const] T name[n] = {...};` (length defaults to len(values); at least 1)."""
    values = list(values)
    n = max(length if length is not None else len(values), 1)
    q = "const " if const else ""
    body = ", ".join(_lit(v, dtype) for v in values)
    init = f" = {{{body}}}" if values else ""
    return f"static {q}{CTYPES[dtype]} {name}[{n}] __attribute__((aligned({align}))){init};\n"


def buffer(name, dtype, length, align=4):
    """A zero-initialised output array (.bss)."""
    return f"static {CTYPES[dtype]} {name}[{max(length, 1)}] __attribute__((aligned({align})));\n"


def dims(d):
    return f"{{{int(d['n'])}, {int(d['h'])}, {int(d['w'])}, {int(d['c'])}}}"


def tile(t):
    return f"{{{int(t['w'])}, {int(t['h'])}}}"


def act(a):
    return f"{{{int(a['min'])}, {int(a['max'])}}}"


def need(case, *fields):
    for f in fields:
        if f not in case:
            raise CaseError(f"{case.get('case', '?')}: missing field {f!r} for family {case.get('family')}")


HEADER = """#include <stdint.h>
#include <stddef.h>
#include <string.h>
#include "arm_nnfunctions.h"

extern int8_t __scratch_start[];
static int32_t scratch_used;
static cmsis_nn_context ctx;

/* Scratch from the RAM after .bss, 8-byte aligned like malloc's; NULL for size 0. */
static void *scratch_alloc(int32_t size)
{
    if (size <= 0)
        return NULL;
    void *p = __scratch_start + scratch_used;
    scratch_used += (size + 7) & ~7;
    return p;
}

static void set_context(cmsis_nn_context *c, int32_t size)
{
    c->buf = scratch_alloc(size);
    c->size = size;
}

/* ctx gets exactly the size the entry point's *_get_buffer_size returned */
static void set_scratch(int32_t size)
{
    scratch_used = 0;
    set_context(&ctx, size);
}
"""


def scratch(size_expr):
    """The set-up statement giving `ctx` what `size_expr` (a `*_get_buffer_size` call) asks
    for; None: the kernel takes no scratch (ctx.buf NULL, size 0)."""
    return f"set_scratch({size_expr if size_expr else 0});"


def cmsis_harness(case, entry, decls, calls, outputs, also=()):
    """A CMSIS-NN harness: data, `harness_setup` (asks the entry point's `*_get_buffer_size`
    for the scratch, uncounted), `harness_run` (the one counted call of `entry`) and
    `harness_validate(k)` (calls `also[k]` into `output_check`, uncounted, after the count).

    `calls` maps each entry point to (set-up statements, normally `scratch(...)`, and the call
    expression with `{out}` for the output array)."""
    for name in (entry, *also):
        if name not in calls:
            raise CaseError(f"{case.get('case', '?')}: {name} is not an entry point of family "
                            f"{case.get('family')} (choose from {', '.join(calls)})")

    src = [HEADER, *decls]
    first = outputs[0]
    if also:
        src.append(buffer("output_check", first.dtype, first.length))
    src += ["\nvoid harness_setup(void)\n{\n    ", calls[entry][0], "\n}\n",
            "\nint32_t harness_run(void)\n{\n    return (int32_t)",
            calls[entry][1].format(out=first.symbol), ";\n}\n"]
    if also:
        src.append("\nint32_t harness_validate(int32_t k)\n{\n    switch (k)\n    {\n")
        for k, name in enumerate(also):
            src.append(f"    case {k}:\n        {calls[name][0]}\n        return (int32_t)"
                       f"{calls[name][1].format(out='output_check')};\n")
        src.append("    }\n    return -100;\n}\n")
    return Harness("".join(src), entry, outputs, also=tuple(also))


TFLM_TYPES = {"int8": "kTfLiteInt8", "int16": "kTfLiteInt16", "int32": "kTfLiteInt32",
              "int64": "kTfLiteInt64", "int4": "kTfLiteInt4"}

TFLM_HEADER = """#include <cstdarg>
#include <cstdint>
#include "tensorflow/lite/c/common.h"
#include "tensorflow/lite/micro/micro_common.h"
{includes}
extern "C" int8_t __scratch_start[];
extern "C" void harness_setup(void);
extern "C" int32_t harness_run(void);

static TfLiteEvalTensor tensors[{n_tensors}];
static TfLiteContext context;
static TfLiteNode node;
static TFLMRegistration registration;

/* Newlib system calls that TFLM's sources reach only through abort() / malloc paths the
   measured code never takes, and TFLM's DebugLog: linked so the bare-metal image resolves,
   never executed by a counted call. */
extern "C" {{
void _exit(int) {{ for (;;) {{}} }}
int _getpid(void) {{ return 1; }}
int _kill(int, int) {{ return -1; }}
void *_sbrk(int) {{ return reinterpret_cast<void *>(-1); }}
void DebugLog(const char *, va_list) {{}}   /* TFLM's log sink: only error paths print */
}}

/* Stand in for TFLM's MicroContextGetEvalTensor / MicroInterpreterContext::GetEvalTensor and
   GetScratchBuffer (harness code: not counted, see README). */
extern "C" TfLiteEvalTensor *harness_get_eval_tensor(const TfLiteContext *, int index)
{{
    return &tensors[index];
}}

static void *scratch_buffers[4];
extern "C" void *harness_get_scratch_buffer(TfLiteContext *, int index)
{{
    return scratch_buffers[index];
}}
"""


@dataclass
class EvalTensor:
    """One TfLiteEvalTensor of the op: its data array (None: no data), type and shape."""
    symbol: str
    dtype: str
    dims: list


def tflm_op_harness(case, register, includes, decls, tensors, inputs, outputs, op_data, builtin,
                    out_specs, scratch_sizes=(), steps=1, step_stride=0):
    """A TFLM harness (C++) that runs the operator's real Eval, as the interpreter would: the
    TFLM kernel sources (micro/kernels/*.cc) compiled with the build's flags, the op's
    registration from `register` (e.g. `tflite::Register_CONV_2D()`), a TfLiteNode whose
    user_data is the op data Prepare would have computed (`op_data`: (type, set-up lines)) and
    builtin_data the op options (`builtin`: (type, set-up lines)); None: the op reads none.  `inputs` / `outputs` are
    tensor indices (-1: an omitted optional input); `decls` declares the data arrays;
    `scratch_sizes` are the scratch buffers Prepare would request (GetScratchBuffer(k)).  The
    count starts at the Eval function; with `steps` > 1 the op is invoked that many times in
    the counted run, tensor 0 advancing by `step_stride` elements each time (SVDF sequences)."""
    head = TFLM_HEADER.format(includes="".join(f'#include "{h}"\n' for h in includes),
                              n_tensors=len(tensors))
    src = [head, *decls]
    setup = [f"    registration = {register};\n",
             "    context.GetEvalTensor = harness_get_eval_tensor;\n",
             "    context.GetScratchBuffer = harness_get_scratch_buffer;\n"]
    offset = 0
    for k, size in enumerate(scratch_sizes):   # 8-aligned, one after another, after .bss
        setup.append(f"    scratch_buffers[{k}] = __scratch_start + {offset};\n")
        offset += (int(size) + 7) // 8 * 8
    for k, t in enumerate(tensors):
        src.append(f"static int dims_{k}[] = {{{len(t.dims)}, {', '.join(str(int(d)) for d in t.dims)}}};\n")
        setup += [f"    tensors[{k}].data.data = (void *){t.symbol if t.symbol else 'nullptr'};\n",
                  f"    tensors[{k}].dims = reinterpret_cast<TfLiteIntArray *>(dims_{k});\n",
                  f"    tensors[{k}].type = {TFLM_TYPES[t.dtype]};\n"]
    src.append(f"static int node_inputs[] = {{{len(inputs)}, {', '.join(map(str, inputs))}}};\n")
    src.append(f"static int node_outputs[] = {{{len(outputs)}, {', '.join(map(str, outputs))}}};\n")
    setup += ["    node.inputs = reinterpret_cast<TfLiteIntArray *>(node_inputs);\n",
              "    node.outputs = reinterpret_cast<TfLiteIntArray *>(node_outputs);\n"]
    for name, part in (("op_data", op_data), ("builtin", builtin)):   # None: the op has none
        if part:
            src.append(f"static {part[0]} {name};\n")
            setup += [f"    node.{'user_data' if name == 'op_data' else 'builtin_data'} = &{name};\n",
                      *part[1]]
    src += ['\nextern "C" void harness_setup(void)\n{\n', *setup, "}\n",
            '\nextern "C" int32_t harness_run(void)\n{\n']
    if steps == 1:
        src.append("    return (int32_t)registration.invoke(&context, &node);\n}\n")
    else:
        first = tensors[0]
        src.append(f"    TfLiteStatus status = kTfLiteOk;\n"
                   f"    for (int step = 0; step < {steps} && status == kTfLiteOk; step++)\n    {{\n"
                   f"        tensors[0].data.data = (void *)({first.symbol} + step * {step_stride});\n"
                   f"        status = registration.invoke(&context, &node);\n    }}\n"
                   f"    return (int32_t)status;\n}}\n")
    return Harness("".join(src), None, out_specs, language="c++")
