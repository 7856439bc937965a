"""The HTML report renders in headless Chromium: cycle bars, instruction mix, arena layout
and the per-op table are in the DOM after the page's script ran, with the right counts.

The render needs Debian's chromium (`apt-get install chromium`), which pip cannot install.
The render tests run wherever a chromium is on PATH; without one they are skipped with the
reason in pytest's summary, unless ARMSIM_BROWSER_TESTS=1, which makes a missing browser a
failure.  .ci/run installs chromium and sets ARMSIM_BROWSER_TESTS=1, so CI always renders."""
import json
import os
import re
import shutil
import subprocess
from html.parser import HTMLParser

import pytest
from click.testing import CliRunner

from armsim.analysis import report
from armsim.cpu.instructions import CLASS_OF

BROWSER_TESTS = "ARMSIM_BROWSER_TESTS"


@pytest.fixture
def chromium():
    """The headless browser; skipped (with the reason) or, under ARMSIM_BROWSER_TESTS=1,
    failed when there is none."""
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found:
        return found
    if os.environ.get(BROWSER_TESTS) == "1":
        pytest.fail(f"{BROWSER_TESTS}=1 but no chromium on PATH: apt-get install -y chromium")
    pytest.skip(f"no chromium on PATH, the HTML report's real-browser render is not checked "
                f"(apt-get install chromium; .ci/run does, and sets {BROWSER_TESTS}=1)")


def render_dom(chromium, html_path, tmp_path):
    profile_dir = tmp_path / "chromium-profile"
    cmd = [chromium, "--headless", "--no-sandbox", "--disable-gpu",
           "--disable-background-networking", "--disable-component-update", "--disable-sync",
           "--no-first-run", f"--user-data-dir={profile_dir}", "--virtual-time-budget=3000",
           "--dump-dom", f"file://{html_path}"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


class Elements(HTMLParser):
    """Every element as (tag, attrs dict, text inside its first data)."""

    def __init__(self, text):
        super().__init__()
        self.elements = []
        self._stack = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        el = {"tag": tag, "attrs": dict(attrs), "text": "", "parents": list(self._stack)}
        self.elements.append(el)
        if tag not in ("rect", "line", "meta", "br", "img", "input"):
            self._stack.append(el)

    def handle_startendtag(self, tag, attrs):
        self.elements.append({"tag": tag, "attrs": dict(attrs), "text": "",
                              "parents": list(self._stack)})

    def handle_endtag(self, tag):
        for i in range(len(self._stack) - 1, -1, -1):
            if self._stack[i]["tag"] == tag:
                del self._stack[i:]
                break

    def handle_data(self, data):
        if self._stack:
            self._stack[-1]["text"] += data

    def select(self, tag, cls=None, inside=None):
        out = []
        for el in self.elements:
            if el["tag"] != tag:
                continue
            if cls and cls not in el["attrs"].get("class", "").split():
                continue
            if inside and not any(p["attrs"].get("id") == inside for p in el["parents"]):
                continue
            out.append(el)
        return out

    def by_id(self, ident):
        return next(el for el in self.elements if el["attrs"].get("id") == ident)


def synthetic_report(arena_form="plan"):
    """A schema-correct report: 5 ops, three paths; op 3 has no CMSIS-NN port (reference
    kernel on every path)."""
    ops = [("CONV_2D", "arm_convolve_s8", 55296), ("DEPTHWISE_CONV_2D", "arm_depthwise_conv_3x3_s8", 4608),
           ("MAX_POOL_2D", "arm_max_pool_s8", 0), ("RESHAPE", "reference:RESHAPE", 0),
           ("FULLY_CONNECTED", "arm_fully_connected_s8", 2560)]
    base = {"simd": [90000, 9000, 700, 40, 3000], "scalar": [400000, 30000, 900, 40, 9000],
            "reference": [900000, 70000, 2000, 40, 20000]}
    mixes = {"simd": {"smlad": 30, "ldr": 40, "sxtb16": 10, "add": 15, "bcc": 5},
             "scalar": {"mla": 50, "ldrsb": 60, "add": 20, "bcc": 10},
             "reference": {"mul": 40, "ldrsb": 80, "add": 60, "bcc": 30, "sdiv": 1}}
    profiles = {}
    for path, cycles in base.items():
        op_list = []
        for i, ((op, kernel, macs), cyc) in enumerate(zip(ops, cycles)):
            mn = {k: v * (i + 1) for k, v in mixes[path].items()}
            ref = kernel.startswith("reference")
            op_list.append({"index": i, "op": op, "kernel": kernel if path != "reference" else
                            f"tflm:{op.lower()}", "reference": ref or path == "reference",
                            "output_shape": [1, 4], "macs": macs,
                            "instructions": sum(mn.values()), "cycles": cyc, "mnemonics": mn,
                            "simulated": not ref})
        profiles[path] = {"model": "synthetic.tflite", "core": "cortex-m4", "path": path,
                          "toolchain": "gcc", "clock_mhz": 100.0, "ops": op_list,
                          "total": {"macs": sum(o["macs"] for o in op_list),
                                    "instructions": sum(o["instructions"] for o in op_list),
                                    "cycles": sum(cycles),
                                    "latency_ms": sum(cycles) / 100e3},
                          "arena_bytes": 3000}
    tensors = [("input", 768, 2048, 0, 0), ("conv1", 2048, 0, 0, 1), ("scratch#0", 96, 2816, 0, 0),
               ("dwconv", 512, 2048, 1, 2), ("maxpool", 128, 0, 2, 3), ("fc", 16, 128, 4, 4)]
    if arena_form == "plan":
        arena = {"head_bytes": 2912, "tail_bytes": 440, "total_bytes": 3352, "tail_parts": {},
                 "buffers": [{"name": n, "kind": "scratch" if n.startswith("scratch") else "tensor",
                              "tensor": i, "bytes": s, "offset": o, "lifetime": [f, last]}
                             for i, (n, s, o, f, last) in enumerate(tensors)]}
    else:
        arena = {"head_bytes": 2912, "tail_bytes": 440, "total_bytes": 3352,
                 "tensors": [{"name": n, "size": s, "offset": o, "first": f, "last": last}
                             for n, s, o, f, last in tensors]}
    return {"model": "synthetic.tflite", "core": "cortex-m4", "toolchain": "gcc",
            "clock_mhz": 100.0, "profiles": profiles, "arena": arena}, tensors


def check_rendered(dom, rep):
    doc = Elements(dom)
    profiles = rep["profiles"]
    paths = [p for p in report.PATH_ORDER if p in profiles]
    n_ops = len(profiles[paths[0]]["ops"])
    summary = doc.by_id("summary")["attrs"]
    assert summary["data-rendered"] == "yes", "the page's script ran"
    # cycle bars: one per (op, path), width proportional to cycles
    bars = doc.select("rect", "bar", inside="cycle-chart")
    assert len(bars) == n_ops * len(paths) == int(summary["data-bars"])
    peak = max(o["cycles"] for p in paths for o in profiles[p]["ops"])
    widest = max(float(b["attrs"]["width"]) for b in bars)
    for b in bars:
        o = profiles[b["attrs"]["data-path"]]["ops"][int(b["attrs"]["data-op"])]
        assert int(b["attrs"]["data-cycles"]) == o["cycles"]
        assert float(b["attrs"]["width"]) == pytest.approx(max(1.0, widest * o["cycles"] / peak),
                                                           abs=0.11)
    # totals the script computed from the bars equal the profiles' totals
    js_totals = {el["attrs"]["data-path"]: int(el["attrs"]["data-cycles"])
                 for el in doc.select("span", "js-total")}
    assert js_totals == {p: sum(o["cycles"] for o in profiles[p]["ops"]) for p in paths}
    # instruction mix: per path, class counts aggregate the mnemonics
    for p in paths:
        want = {}
        for o in profiles[p]["ops"]:
            for mn, n in o["mnemonics"].items():
                want[CLASS_OF[mn]] = want.get(CLASS_OF[mn], 0) + n
        got = {el["attrs"]["data-class"]: int(el["attrs"]["data-count"])
               for el in doc.select("rect", "mix", inside="mix-chart")
               if el["attrs"]["data-path"] == p}
        assert got == want
    # per-op table: a row per op in index order with each path's cycles
    rows = doc.select("tr", inside="op-table")[1:]          # skip the header row
    assert len(rows) == n_ops == int(summary["data-rows"])
    assert [int(r["attrs"]["data-index"]) for r in rows] == list(range(n_ops))
    cells = [el for el in doc.select("td", inside="op-table")]
    values = [c["attrs"].get("data-v") for c in cells]
    for p in paths:
        for o in profiles[p]["ops"]:
            assert str(o["cycles"]) in values
    return doc


def test_report_is_self_contained():
    """No external resources: the report opens offline."""
    text = report.render_html(synthetic_report()[0])
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", text)
    assert "@import" not in text and "<link" not in text


@pytest.mark.parametrize("arena_form", ["plan", "tensors"])
def test_synthetic_report_renders(chromium, tmp_path, arena_form):
    rep, tensors = synthetic_report(arena_form)
    out = tmp_path / "report.html"
    report.write_html(rep, str(out))
    doc = check_rendered(render_dom(chromium, out, tmp_path), rep)
    # the arena: one rectangle per buffer, placed by offset (y) and lifetime (x)
    rects = doc.select("rect", "tensor", inside="arena-chart")
    assert len(rects) == len(tensors) == int(doc.by_id("summary")["attrs"]["data-tensors"])
    got = {r["attrs"]["data-name"]: (int(r["attrs"]["data-size"]), int(r["attrs"]["data-offset"]),
                                     int(r["attrs"]["data-first"]), int(r["attrs"]["data-last"]))
           for r in rects}
    assert got == {n: (s, o, f, last) for n, s, o, f, last in tensors}
    by_name = {r["attrs"]["data-name"]: r["attrs"] for r in rects}
    # conv1 (ops 0..1) starts left of dwconv (ops 1..2); maxpool at offset 0 lies below dwconv
    assert float(by_name["conv1"]["x"]) < float(by_name["dwconv"]["x"])
    assert float(by_name["maxpool"]["y"]) > float(by_name["dwconv"]["y"])
    assert float(by_name["conv1"]["width"]) == pytest.approx(2 * float(by_name["fc"]["width"]))


def test_single_path_report(chromium, tmp_path):
    rep, _ = synthetic_report()
    rep["profiles"] = {"simd": rep["profiles"]["simd"]}
    out = tmp_path / "one.html"
    report.write_html(rep, str(out))
    check_rendered(render_dom(chromium, out, tmp_path), rep)


def test_names_are_escaped(tmp_path):
    rep, _ = synthetic_report()
    rep["model"] = "<script>alert(1)</script>.tflite"
    rep["profiles"]["simd"]["ops"][0]["kernel"] = "a<b>&c"
    text = report.render_html(rep)
    assert "<script>alert(1)" not in text and "a&lt;b&gt;&amp;c" in text


def test_no_profiles_is_an_error():
    with pytest.raises(report.ReportError):
        report.render_html({"model": "x", "profiles": {}})


def test_real_profile_of_the_example_model(chromium, tmp_path):
    """`armsim compare --html` on the example model (armsim.pipeline.profiler + cli/cmd_model.py)."""
    from armsim.cli.main import main
    html_path, json_path = tmp_path / "compare.html", tmp_path / "compare.json"
    result = CliRunner().invoke(main, ["compare", "--html", str(html_path), "--json",
                                       str(json_path)])
    assert result.exit_code == 0, result.output
    data = json.loads(json_path.read_text())
    profiles = data.get("profiles", data) if isinstance(data, dict) else data
    dom = render_dom(chromium, html_path, tmp_path)
    doc = Elements(dom)
    assert doc.by_id("summary")["attrs"]["data-rendered"] == "yes"
    bars = doc.select("rect", "bar", inside="cycle-chart")
    rows = doc.select("tr", inside="op-table")[1:]
    paths = {b["attrs"]["data-path"] for b in bars}
    assert paths == {"simd", "scalar", "reference"}
    assert len(rows) >= 7 and len(bars) == 3 * len(rows)
    assert doc.select("rect", "tensor", inside="arena-chart")
    # cycles by stage (simd): per op, the rendered segments add up to the op's cycles
    segments = doc.select("rect", "stage", inside="stage-chart")
    by_op = {}
    for seg in segments:
        a = seg["attrs"]
        by_op.setdefault(int(a["data-op"]), []).append(int(a["data-cycles"]))
        assert int(a["data-op-cycles"]) == profiles["simd"]["ops"][int(a["data-op"])]["cycles"]
    assert by_op and all(sum(v) == profiles["simd"]["ops"][i]["cycles"] for i, v in by_op.items())
    # why the DSP build gains little, where it does (compare's simd_gain reasons)
    reasons = [el["attrs"]["data-v"] for el in doc.select("td", "simd-gain", inside="op-table")]
    want = [(o.get("simd_gain") or {}).get("reason", "") for o in profiles["simd"]["ops"]]
    assert reasons == want and any(want)
    if isinstance(profiles, dict) and "simd" in profiles:
        check_rendered(dom, {"profiles": profiles})
