"""The tensor arena TFLite Micro would use for a model: head (planned) + tail (persistent).

Head -- TFLM's GreedyMemoryPlanner (micro/memory_planner/greedy_memory_planner.cc) over
the non-persistent buffers that AllocationInfoBuilder (micro_allocation_info.cc) hands
it: every non-constant tensor, alive from the op that creates it (0 for graph inputs) to
the last op that reads it (the last op for graph outputs), then every scratch buffer a
kernel's Prepare requests (alive during that op only), sized by the kernel's
``*_get_buffer_size`` (the family's `buffer_size`).  Sizes are rounded up to the arena's
16-byte buffer alignment.  The planner lists online buffers from the back (so equal sizes
keep reverse request order), bubble-sorts them by decreasing size, and places each at the
lowest offset where it does not overlap, in memory and in time, any buffer already placed.

Tail -- what TFLM allocates persistently from the arena's end (micro_allocator.cc,
micro_interpreter.cc, each kernel's Init/Prepare): the allocator objects themselves, one
TfLiteEvalTensor (12 bytes) per tensor, one NodeAndRegistration per op, each op's
builtin params and OpData (with the per-channel multiplier/shift arrays of conv and
depthwise), and the scratch-buffer handles.  Struct sizes are for a 32-bit Arm target;
where a size depends on the TFLM build it is calibrated against the measured
``arena_used_bytes`` and says so.
"""
from dataclasses import dataclass, field

from armsim import operators
from armsim.kernels import families

ALIGN = 16                       # MicroArenaBufferAlignment()

# --- persistent (tail) sizes, bytes on a 32-bit target ----------------------------------
EVAL_TENSOR = 12                 # TfLiteEvalTensor {void* data; TfLiteIntArray* dims; TfLiteType type}
NODE_AND_REGISTRATION = 36       # NodeAndRegistration {TfLiteNode node (7 pointers/ints); const TFLMRegistration*}
SCRATCH_HANDLE = 4               # internal::ScratchBufferHandle {uint8_t* data}
# Allocator objects placed in the arena by MicroAllocator::Create (MicroAllocator,
# GreedyMemoryPlanner, Persistent/NonPersistentArenaBufferAllocator,
# MicroBuiltinDataAllocator, SubgraphAllocations) plus the interpreter's
# graph bookkeeping: no public breakdown, so calibrated on measured.json -- the `ad`
# model (ten FULLY_CONNECTED ops) leaves exactly 200 bytes on all three paths once the
# terms below are counted.
FRAMEWORK = 200


@dataclass
class Buffer:
    name: str
    kind: str            # "tensor" or "scratch"
    tensor: int          # tensor index, or op index for scratch
    size: int            # bytes requested
    first: int           # first op index alive
    last: int            # last op index alive
    offset: int = -1

    @property
    def aligned(self):
        return align(self.size)


@dataclass
class Plan:
    buffers: list
    head: int
    tail: int
    tail_parts: dict = field(default_factory=dict)

    @property
    def total(self):
        return self.head + self.tail

    def to_json(self):
        return {"head_bytes": self.head, "tail_bytes": self.tail, "total_bytes": self.total,
                "tail_parts": self.tail_parts,
                "buffers": [{"name": b.name, "kind": b.kind, "tensor": b.tensor,
                             "bytes": b.size, "offset": b.offset,
                             "lifetime": [b.first, b.last]} for b in self.buffers]}


def align(n, a=ALIGN):
    return (n + a - 1) // a * a


def greedy_plan(buffers):
    """Place `buffers` like GreedyMemoryPlanner; sets each `offset`, returns the head size."""
    if not buffers:
        return 0
    # online buffers are listed from the tail: ids in reverse request order
    order = list(range(len(buffers)))[::-1]
    sizes = [buffers[i].aligned for i in order]
    swapped = True
    while swapped:                       # ReverseSortInPlace: stable bubble sort, descending
        swapped = False
        for i in range(1, len(order)):
            if sizes[i - 1] < sizes[i]:
                sizes[i - 1], sizes[i] = sizes[i], sizes[i - 1]
                order[i - 1], order[i] = order[i], order[i - 1]
                swapped = True
    placed = []                          # (offset, buffer) sorted by offset
    for bid in order:
        b = buffers[bid]
        candidate = 0
        for off, other in placed:
            if other.last < b.first or other.first > b.last:
                continue                 # not alive at the same time
            if off - candidate >= b.aligned:
                break                    # the gap before `other` fits
            candidate = max(candidate, off + other.aligned)
        b.offset = candidate
        placed.append((candidate, b))
        placed.sort(key=lambda e: e[0])
    return max(b.offset + b.aligned for b in buffers)


def scratch_bytes(step, build):
    """The scratch buffers TFLM's Prepare requests for `step` on `build`: one size, or a
    list when the family's `buffer_sizes` names several (0: none)."""
    if step.host:
        return 0
    if step.reference_only:
        sizes = step.case.get("scratch_bytes", 0)       # MEAN's int32 temp_sum; MIRROR_PAD's two
        return [int(n) for n in sizes] if isinstance(sizes, list) else int(sizes)
    if not build.cmsis_nn:   # a CMSIS-NN family's reference kernel may request some too
        module = families.family(step.case["family"])
        if hasattr(module, "reference_buffer_sizes"):
            return [int(size) for size in module.reference_buffer_sizes(step.case)]
        return int(getattr(module, "reference_buffer_size", lambda case: 0)(step.case))
    case = step.cmsis_case or step.case
    module = families.family(case["family"])
    if hasattr(module, "buffer_sizes"):
        return [int(size) for size in module.buffer_sizes(case)]
    return int(module.buffer_size(case, build.dsp_extension, build.armclang))


def plan(model, steps, build):
    """The arena `Plan` of `model` (its prepared `steps`) on `build` (a `Build`)."""
    n_ops = len(model.operators)
    first, last = {}, {}
    for i in model.inputs:
        first[i] = 0
        last[i] = 0
    for op in model.operators:
        for i in op.inputs:
            if i >= 0 and not model.tensors[i].constant:
                first.setdefault(i, op.index)
                last[i] = op.index
        for i in op.outputs:
            first.setdefault(i, op.index)
            last[i] = max(last.get(i, op.index), op.index)
    for i in model.outputs:
        last[i] = max(n_ops - 1, 0)
    buffers = []
    for t in model.tensors:
        if t.constant or t.index not in first or t.dtype is None or t.is_variable:
            continue                 # (variable tensors are persistent: the tail)
        if t.nbytes == 0:
            continue
        buffers.append(Buffer(t.name, "tensor", t.index, t.nbytes, first[t.index],
                              last[t.index]))
    n_scratch = 0
    for step in steps:
        sizes = scratch_bytes(step, build)
        for k, size in enumerate(sizes if isinstance(sizes, list) else [sizes]):
            if size > 0:
                n_scratch += 1
                buffers.append(Buffer(f"scratch{' ' + str(k) if k else ''} of op {step.index} "
                                      f"{step.op}", "scratch", step.index, size, step.index,
                                      step.index))
        extra = step.cmsis_scratch_bytes if build.cmsis_nn else 0
        if extra:          # FULLY_CONNECTED as conv 1x1: per-channel copies of the quant params
            n_scratch += 1
            buffers.append(Buffer(f"quant params of op {step.index} {step.op}", "scratch",
                                  step.index, extra, step.index, step.index))
    head = greedy_plan(buffers)
    parts = {
        "framework": FRAMEWORK,
        "eval_tensors": EVAL_TENSOR * len(model.tensors),
        "nodes": NODE_AND_REGISTRATION * n_ops,
        "op_data": 0,
        "scratch_handles": SCRATCH_HANDLE * n_scratch,
    }
    col = 1 if build.cmsis_nn else 2
    for step in steps:
        operator = operators.get(step.op)
        # builtin params; OpData (an op armsim has no module for: unknown, not counted)
        params, *data = operator.op_data if operator is not None else (0, 0, 0)
        size = params + data[col - 1]
        size += step.persistent_bytes                    # Prepare's other persistent buffers
        if build.cmsis_nn:                               # ... those of its CMSIS-NN glue only
            size += step.cmsis_persistent_bytes
        if operator is not None and operator.per_channel_data is not None \
                and operator.per_channel_data(step):
            size += 2 * 4 * step.output_shape[-1]    # per-channel multiplier + shift
        parts["op_data"] += align(size, 4)
    variables = [t.nbytes for t in model.tensors if t.is_variable and t.dtype is not None]
    if variables:   # AllocateVariables: one persistent buffer each, arena-aligned
        parts["variables"] = sum(align(n) for n in variables)
    tail = sum(parts.values())
    return Plan(buffers, head, tail, parts)
