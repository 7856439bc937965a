"""Per-family entry points: place a case's data and call the CMSIS-NN API function."""
