"""Compile the measured libraries once per build (cached outside the repository) and link one
bare-metal image per case."""
import hashlib
import os
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from .builds import CACHE_DIR, CMSIS_NN_DIR

HERE = Path(__file__).resolve().parent
LINKER_SCRIPT = HERE / "image.ld"


class ToolchainError(RuntimeError):
    """A compile or link failed; the message names the command's output."""


def _run(cmd, what):
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if proc.returncode != 0:
        raise ToolchainError(f"{what} failed:\n{' '.join(map(str, cmd))}\n{proc.stdout}")
    return proc.stdout


def cmsis_nn_sources():
    """Every non-float C file of CMSIS-NN (as the reference was built)."""
    src = Path(CMSIS_NN_DIR) / "Source"
    files = sorted(p for p in src.rglob("*.c") if "_f32" not in p.name and "_f16" not in p.name)
    if not files:
        raise ToolchainError(f"no CMSIS-NN sources under {src}")
    return files


def build_dir(build):
    return Path(CACHE_DIR) / build.name


def _stamp(build, files, include_dirs):
    h = hashlib.sha256()
    h.update(" ".join(build.cflags()).encode())
    h.update(" ".join(map(str, include_dirs)).encode())
    for f in files:
        st = f.stat()
        h.update(f"{f}:{st.st_size}:{int(st.st_mtime)}".encode())
    return h.hexdigest()[:16]


def archive(build, name, files, include_dirs, extra_flags=(), jobs=2):
    """Compile `files` with the build's flags into <cache>/<build>/<name>-<stamp>/lib<name>.a,
    reused while flags and sources are unchanged.  The stamp in the path lets tool versions
    with different sources share the cache, and the directory appears atomically (built
    under a temporary name, then renamed), so concurrent runs never see half an archive."""
    stamp = _stamp(build, files, list(include_dirs) + list(extra_flags))
    out = build_dir(build) / f"{name}-{stamp}"
    lib = out / f"lib{name}.a"
    if lib.exists():
        return lib
    tmp = build_dir(build) / f".{name}-{stamp}.{os.getpid()}"
    if tmp.exists():
        shutil.rmtree(tmp)
    (tmp / "obj").mkdir(parents=True)
    incs = [f"-I{d}" for d in include_dirs]
    stems = [f.stem for f in files]

    def compile_one(f):
        # a name shared by two sources (TFLM's two kernel_util.cc): prefix two parent dirs
        name_ = f.stem if stems.count(f.stem) == 1 else "_".join((*f.parent.parts[-2:], f.stem))
        obj = tmp / "obj" / (name_ + ".o")
        _run([build.compiler, *build.cflags(), *extra_flags, *incs, "-c", str(f), "-o", str(obj)],
             f"compiling {f.name} for {build.name}")
        return obj

    print(f"[measure] compiling {len(files)} files of {name} for {build.name} ...", file=sys.stderr)
    with ThreadPoolExecutor(jobs) as pool:
        objs = list(pool.map(compile_one, files))
    _run(["arm-none-eabi-ar", "rcs", str(tmp / f"lib{name}.a"), *map(str, objs)], f"archiving {name}")
    try:
        os.rename(tmp, out)
    except OSError:          # another run finished the same archive first
        shutil.rmtree(tmp)
    return lib


def cmsis_nn_library(build):
    inc = Path(CMSIS_NN_DIR) / "Include"
    return archive(build, "cmsisnn", cmsis_nn_sources(), [inc])


def cmsis_nn_includes():
    return [Path(CMSIS_NN_DIR) / "Include"]


def link_image(build, harness_source, workdir, libraries, include_dirs, suffix=".c"):
    """Compile the generated harness with the build's flags and link it bare metal against
    the cached libraries, full newlib and libgcc of the build's multilib."""
    workdir = Path(workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    src = workdir / f"harness{suffix}"
    src.write_text(harness_source)
    obj = workdir / "harness.o"
    elf = workdir / "image.elf"
    libs_args = [*map(str, libraries), *build.libs]
    incs = [f"-I{d}" for d in include_dirs]
    _run([build.compiler, *build.cflags(), *incs, "-c", str(src), "-o", str(obj)],
         f"compiling the harness for {build.name}")
    _run([build.compiler, *build.cflags(), *build.ldflags, f"-T{LINKER_SCRIPT}",
          "-Wl,--no-warn-rwx-segments", str(obj), *libs_args, "-o", str(elf)],
         f"linking the image for {build.name}")
    return elf


def multilib_of(build):
    """The multilib directory gcc selects for the build's flags (checked against the build)."""
    out = _run([build.compiler, *build.cflags(), "-print-multi-directory"], "gcc -print-multi-directory")
    return out.strip()
