"""The machine: instruction semantics (`isa`), the counted ops kernels call (`ops`), the
machine state and counters (`machine`), compiled/traced kernels (`kernel`) and the cycle
tables (`cores`).  It imports nothing from the kernels or the model pipeline above it."""
