"""Small helpers that write a case's data and parameter structs as C."""
from dataclasses import dataclass, field

CTYPES = {"int8": "int8_t", "int16": "int16_t", "int32": "int32_t", "int64": "int64_t",
          "uint32": "uint32_t", "uint8": "uint8_t"}
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
