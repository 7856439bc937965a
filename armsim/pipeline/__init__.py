"""From a .tflite file to a profile: load (`model`), derive each op's kernel parameters
(`prepare`), run each step on a machine of a `build` (`harness`, `profiler`), plan the arena
(`arena`); ops armsim does not simulate run in TFLM on the host (`tflm_host`)."""
