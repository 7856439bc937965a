"""One self-contained HTML report of a model profile: `write_html(report, path)`.

`report` = {"model", "core", "toolchain", "clock_mhz",
            "profiles": {path: the `armsim profile --json` dict, for simd/scalar/reference},
            "arena": the arena plan (`Plan.to_json()`: head_bytes, tail_bytes, total_bytes,
                     buffers [{name, kind, bytes, offset, lifetime: [first, last]}]; the
                     form {"tensors": [{name, size, offset, first, last}]} is accepted too)}.

The page needs no network: the charts are inline SVG drawn here, the styling is inline CSS,
and a few lines of inline JavaScript make the table sortable and fill in the summary
figures from the data attributes of the drawn elements (a check that the page rendered).
Sections: totals, per-op cycle bars (simd vs scalar vs reference), each op's cycles by stage
(first path), instruction mix per path (by timing class), the arena layout (tensors as rectangles over op index x offset), and the
per-op table.
"""
import html
import json
import math

from armsim.cpu.instructions import CLASS_OF, CLASSES
from armsim.errors import ReportError

PATH_ORDER = ("simd", "scalar", "reference")
PATH_COLOURS = {"simd": "#1b7f5f", "scalar": "#d9822b", "reference": "#6b6bb3"}
CLASS_COLOURS = dict(zip(CLASSES, (
    "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
    "#9c755f", "#bab0ac", "#8cd17d", "#86bcb6", "#d37295", "#cccccc")))


def _e(x):
    return html.escape(str(x), quote=True)


def _fmt(n):
    if n is None:
        return "-"
    if isinstance(n, float) and not n.is_integer():
        return f"{n:,.3f}"
    return f"{int(n):,}"


def _paths(report):
    profiles = report.get("profiles") or {}
    paths = [p for p in PATH_ORDER if p in profiles] + \
        [p for p in profiles if p not in PATH_ORDER]
    if not paths:
        raise ReportError("report has no profiles")
    return paths, profiles


def _ops_table(paths, profiles):
    """Rows by op index: {index, op, kernel, macs, per path {cycles, instructions, ...}}."""
    rows = {}
    for p in paths:
        for o in profiles[p].get("ops", []):
            row = rows.setdefault(o["index"], {"index": o["index"], "op": o["op"],
                                               "macs": o.get("macs", 0), "paths": {}})
            row["paths"][p] = o
    return [rows[i] for i in sorted(rows)]


def _arena_tensors(arena):
    if not arena:
        return []
    if "tensors" in arena:
        return [dict(name=t["name"], size=int(t["size"]), offset=int(t["offset"]),
                     first=int(t["first"]), last=int(t["last"]), kind=t.get("kind", "tensor"))
                for t in arena["tensors"]]
    return [dict(name=b["name"], size=int(b["bytes"]), offset=int(b["offset"]),
                 first=int(b["lifetime"][0]), last=int(b["lifetime"][1]),
                 kind=b.get("kind", "tensor")) for b in arena.get("buffers", [])]


# --- charts ------------------------------------------------------------------------------

def _cycle_bars(rows, paths):
    """Horizontal grouped bars, one group per op; log-free linear scale per chart."""
    bar_h, gap, label_w, width = 11, 8, 260, 900
    plot_w = width - label_w - 120
    peak = max([r["paths"][p]["cycles"] for r in rows for p in paths if p in r["paths"]] + [1])
    group_h = bar_h * len(paths) + gap
    height = 30 + group_h * len(rows)
    out = [f'<svg id="cycle-chart" class="chart" xmlns="http://www.w3.org/2000/svg" '
           f'width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img" '
           f'aria-label="cycles per op">']
    for k, p in enumerate(paths):
        out.append(f'<rect x="{label_w + 150 * k}" y="4" width="12" height="12" '
                   f'fill="{PATH_COLOURS.get(p, "#888")}"/><text x="{label_w + 150 * k + 16}" '
                   f'y="14" class="legend">{_e(p)}</text>')
    for i, r in enumerate(rows):
        y0 = 26 + i * group_h
        out.append(f'<text x="{label_w - 6}" y="{y0 + group_h / 2}" text-anchor="end" '
                   f'class="oplabel">#{r["index"]} {_e(r["op"])}</text>')
        for k, p in enumerate(paths):
            o = r["paths"].get(p)
            if o is None:
                continue
            w = max(1.0, plot_w * o["cycles"] / peak)
            y = y0 + k * bar_h
            out.append(
                f'<rect class="bar" data-op="{r["index"]}" data-path="{_e(p)}" '
                f'data-cycles="{o["cycles"]}" x="{label_w}" y="{y}" width="{w:.1f}" '
                f'height="{bar_h - 2}" fill="{PATH_COLOURS.get(p, "#888")}">'
                f'<title>#{r["index"]} {_e(r["op"])} {_e(p)}: {_fmt(o["cycles"])} cycles, '
                f'{_fmt(o["instructions"])} instructions ({_e(o.get("kernel", ""))})</title></rect>')
            out.append(f'<text x="{label_w + w + 4:.1f}" y="{y + bar_h - 3}" class="val">'
                       f'{_fmt(o["cycles"])}</text>')
    out.append("</svg>")
    return "\n".join(out)


def _class_mix(profile):
    mix = {}
    for o in profile.get("ops", []):
        for mn, n in (o.get("mnemonics") or {}).items():
            cls = CLASS_OF.get(mn, "other")
            mix[cls] = mix.get(cls, 0) + int(n)
    return mix


def _mix_chart(paths, profiles):
    """One 100% stacked bar per path: the share of each timing class."""
    label_w, width, bar_h, per_row = 90, 900, 26, 10
    plot_w = width - label_w - 20
    classes_used = {CLASS_OF.get(mn, "other") for p in paths for o in profiles[p].get("ops", [])
                    for mn in (o.get("mnemonics") or {})}
    legend_rows = max(1, math.ceil(len(classes_used) / per_row))
    bars_h = 10 + (bar_h + 12) * len(paths)
    height = bars_h + 10 + 20 * legend_rows
    out = [f'<svg id="mix-chart" class="chart" xmlns="http://www.w3.org/2000/svg" '
           f'width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img" '
           f'aria-label="instruction mix">']
    used = []
    for i, p in enumerate(paths):
        mix = _class_mix(profiles[p])
        total = sum(mix.values())
        y = 10 + i * (bar_h + 12)
        out.append(f'<text x="{label_w - 6}" y="{y + bar_h / 2 + 4}" text-anchor="end" '
                   f'class="oplabel">{_e(p)}</text>')
        x = label_w
        for cls in list(CLASSES) + ["other"]:
            n = mix.get(cls, 0)
            if not n or not total:
                continue
            if cls not in used:
                used.append(cls)
            w = plot_w * n / total
            out.append(f'<rect class="mix" data-path="{_e(p)}" data-class="{cls}" '
                       f'data-count="{n}" x="{x:.1f}" y="{y}" width="{w:.1f}" height="{bar_h}" '
                       f'fill="{CLASS_COLOURS.get(cls, "#999")}"><title>{_e(p)} {cls}: '
                       f'{_fmt(n)} instructions ({100 * n / total:.1f}%)</title></rect>')
            if w > 34:
                out.append(f'<text x="{x + 3:.1f}" y="{y + bar_h / 2 + 4}" class="inbar">'
                           f'{cls}</text>')
            x += w
    for k, cls in enumerate(used):
        lx, ly = label_w + 75 * (k % per_row), bars_h + 10 + 20 * (k // per_row)
        out.append(f'<rect class="legend-key" x="{lx}" y="{ly}" width="12" height="12" '
                   f'fill="{CLASS_COLOURS.get(cls, "#999")}"/><text x="{lx + 16}" '
                   f'y="{ly + 10}" class="legend">{cls}</text>')
    out.append("</svg>")
    return "\n".join(out)


STAGE_COLOURS = ("#4e79a7", "#76b7b2", "#f28e2b", "#e15759", "#59a14f", "#edc948", "#b07aa1",
                 "#9c755f", "#bab0ac", "#ff9da7", "#d37295", "#cccccc")


def _stage_chart(path, profile):
    """Per op of `path`, its cycles as one bar split by stage (the JSON's `stages`): bar
    lengths on one scale, so the big ops and what they spend their cycles on both show."""
    ops = [o for o in profile.get("ops", []) if o.get("stages")]
    if not ops:
        return "<p>no stage data</p>"
    stages = list(dict.fromkeys(st for o in ops for st in o["stages"]))
    colour = {st: STAGE_COLOURS[k % len(STAGE_COLOURS)] for k, st in enumerate(stages)}
    label_w, width, bar_h, per_row = 190, 900, 18, 6
    plot_w = width - label_w - 80
    peak = max(o["cycles"] for o in ops) or 1
    legend_rows = math.ceil(len(stages) / per_row)
    bars_h = 10 + bar_h * len(ops)
    height = bars_h + 10 + 20 * legend_rows
    out = [f'<svg id="stage-chart" class="chart" data-path="{_e(path)}" '
           f'xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" role="img" aria-label="cycles by stage">']
    for k, o in enumerate(ops):
        y = 10 + k * bar_h
        out.append(f'<text x="{label_w - 6}" y="{y + bar_h - 5}" text-anchor="end" '
                   f'class="oplabel">#{o["index"]} {_e(o["op"])}</text>')
        x = label_w
        for st, row in o["stages"].items():
            w = plot_w * row["cycles"] / peak
            out.append(f'<rect class="stage" data-op="{o["index"]}" data-stage="{_e(st)}" '
                       f'data-cycles="{row["cycles"]}" data-op-cycles="{o["cycles"]}" '
                       f'x="{x:.2f}" y="{y}" width="{max(w, 0):.2f}" height="{bar_h - 3}" '
                       f'fill="{colour[st]}"><title>#{o["index"]} {_e(o["op"])} {_e(st)}: '
                       f'{_fmt(row["cycles"])} cycles ({100 * row["cycles"] / (o["cycles"] or 1):.1f}%), '
                       f'{_fmt(row["instructions"])} instructions</title></rect>')
            x += max(w, 0)
        out.append(f'<text x="{x + 4:.1f}" y="{y + bar_h - 5}" class="val">'
                   f'{_fmt(o["cycles"])}</text>')
    for k, st in enumerate(stages):
        lx, ly = label_w + 115 * (k % per_row), bars_h + 10 + 20 * (k // per_row)
        out.append(f'<rect class="legend-key" x="{lx}" y="{ly}" width="12" height="12" '
                   f'fill="{colour[st]}"/><text x="{lx + 16}" y="{ly + 10}" '
                   f'class="legend">{_e(st)}</text>')
    out.append("</svg>")
    return "\n".join(out)


def _arena_chart(tensors, n_ops, head_bytes):
    """Tensors over time (op index, x) and arena offset (y)."""
    width, height, left, top, bottom = 900, 360, 70, 10, 30
    plot_w, plot_h = width - left - 20, height - top - bottom
    span = max([t["offset"] + t["size"] for t in tensors] + [head_bytes or 0, 1])
    steps = max([t["last"] + 1 for t in tensors] + [n_ops, 1])
    out = [f'<svg id="arena-chart" class="chart" xmlns="http://www.w3.org/2000/svg" '
           f'width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img" '
           f'aria-label="arena layout">',
           f'<rect x="{left}" y="{top}" width="{plot_w}" height="{plot_h}" fill="#fafafa" '
           f'stroke="#bbb"/>']
    for s in range(steps + 1):
        x = left + plot_w * s / steps
        out.append(f'<line x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{top + plot_h}" '
                   f'stroke="#e4e4e4"/>')
        if s < steps:
            out.append(f'<text x="{x + plot_w / steps / 2:.1f}" y="{height - 12}" '
                       f'text-anchor="middle" class="val">{s}</text>')
    for k in range(5):
        off = span * k / 4
        y = top + plot_h - plot_h * off / span
        out.append(f'<text x="{left - 4}" y="{y + 4:.1f}" text-anchor="end" class="val">'
                   f'{_fmt(round(off))}</text>')
    palette = list(CLASS_COLOURS.values())
    for i, t in enumerate(tensors):
        x = left + plot_w * t["first"] / steps
        w = plot_w * (t["last"] + 1 - t["first"]) / steps
        h = max(1.0, plot_h * t["size"] / span)
        y = top + plot_h - plot_h * (t["offset"] + t["size"]) / span
        colour = "#999" if t["kind"] == "scratch" else palette[i % len(palette)]
        out.append(f'<rect class="tensor" data-name="{_e(t["name"])}" data-offset="{t["offset"]}" '
                   f'data-size="{t["size"]}" data-first="{t["first"]}" data-last="{t["last"]}" '
                   f'x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" fill="{colour}" '
                   f'fill-opacity="0.75" stroke="#333" stroke-width="0.5"><title>{_e(t["name"])}'
                   f' ({_e(t["kind"])}): {_fmt(t["size"])} bytes at offset {_fmt(t["offset"])}, '
                   f'ops {t["first"]}..{t["last"]}</title></rect>')
        if h >= 12 and w >= 7 * len(t["name"]) + 6:
            out.append(f'<text x="{x + 3:.1f}" y="{y + 11:.1f}" class="val">{_e(t["name"])}</text>')
    out.append(f'<text x="{left + plot_w / 2}" y="{height - 1}" text-anchor="middle" '
               f'class="legend">op index (time)</text>')
    out.append("</svg>")
    return "\n".join(out)


# --- page --------------------------------------------------------------------------------

_CSS = """
body { font: 14px/1.4 system-ui, sans-serif; margin: 24px; color: #222; max-width: 1000px; }
h1 { font-size: 22px; margin-bottom: 4px; } h2 { font-size: 17px; margin-top: 28px; }
.meta { color: #555; } .chart { display: block; margin: 8px 0; }
.chart text { font: 11px system-ui, sans-serif; fill: #333; }
.chart .inbar { fill: #fff; } .chart .legend { font-size: 12px; }
table { border-collapse: collapse; width: 100%; font-size: 13px; }
th, td { border-bottom: 1px solid #ddd; padding: 3px 6px; text-align: right; }
th { cursor: pointer; background: #f3f3f3; } td.l, th.l { text-align: left; }
.ref { color: #a33; } .totals td { font-weight: 600; }
td.why { font-size: 85%; max-width: 36em; }
#summary span { margin-right: 18px; }
"""

_JS = """
(function () {
  var bars = document.querySelectorAll('#cycle-chart rect.bar');
  var rows = document.querySelectorAll('#op-table tbody tr');
  var tensors = document.querySelectorAll('#arena-chart rect.tensor');
  var s = document.getElementById('summary');
  s.dataset.bars = bars.length; s.dataset.rows = rows.length; s.dataset.tensors = tensors.length;
  var totals = {};
  bars.forEach(function (b) {
    totals[b.dataset.path] = (totals[b.dataset.path] || 0) + Number(b.dataset.cycles);
  });
  Object.keys(totals).forEach(function (p) {
    var span = document.createElement('span');
    span.className = 'js-total'; span.dataset.path = p; span.dataset.cycles = totals[p];
    span.textContent = p + ': ' + totals[p].toLocaleString('en-US') + ' cycles';
    s.appendChild(span);
  });
  s.dataset.rendered = 'yes';
  document.querySelectorAll('#op-table th').forEach(function (th, col) {
    th.addEventListener('click', function () {
      var body = document.querySelector('#op-table tbody');
      var list = Array.prototype.slice.call(body.rows);
      var dir = th.dataset.dir === 'asc' ? -1 : 1; th.dataset.dir = dir > 0 ? 'asc' : 'desc';
      list.sort(function (a, b) {
        var x = a.cells[col].dataset.v, y = b.cells[col].dataset.v;
        var nx = Number(x), ny = Number(y);
        return dir * ((isNaN(nx) || isNaN(ny)) ? String(x).localeCompare(y) : nx - ny);
      });
      list.forEach(function (r) { body.appendChild(r); });
    });
  });
})();
"""


def render_html(report):
    paths, profiles = _paths(report)
    rows = _ops_table(paths, profiles)
    arena = report.get("arena") or {}
    tensors = _arena_tensors(arena)
    title = f"armsim report: {report.get('model', '?')}"
    meta = (f"core {report.get('core', '?')}, toolchain {report.get('toolchain', '?')}, "
            f"{report.get('clock_mhz', '?')} MHz; paths: {', '.join(paths)}")
    first = profiles[paths[0]] if paths else {}
    if first.get("build"):                 # which build the cycles describe (M55: not MVE)
        meta += f"; {first['build']}"
    board = first.get("board")
    meta += f"; board {board['summary']}" if board else "; no board: zero-wait-state memory"

    totals = []
    for p in paths:
        t = profiles[p].get("total", {})
        totals.append(f'<tr data-path="{_e(p)}"><td class="l">{_e(p)}</td>'
                      f'<td>{_fmt(t.get("macs"))}</td><td>{_fmt(t.get("instructions"))}</td>'
                      f'<td>{_fmt(t.get("cycles"))}</td><td>{_fmt(t.get("latency_ms"))}</td>'
                      + (f'<td>{profiles["scalar"]["total"]["cycles"] / t["cycles"]:.2f}x</td>'
                         if "scalar" in profiles and t.get("cycles") else "<td>-</td>") + "</tr>")

    head = ['<th class="l">#</th>', '<th class="l">op</th>', '<th class="l">kernel</th>',
            "<th>MACs</th>"]
    for p in paths:
        head += [f"<th>{_e(p)} instr</th>", f"<th>{_e(p)} cycles</th>"]
    if "simd" in paths and "scalar" in paths:
        head.append("<th>scalar / simd</th>")
    why = report.get("why") or {}          # op index -> why its kernel path (armsim.analysis.insight)
    if why:
        head.append('<th class="l">why this kernel</th>')
    # compare: why the DSP build gains less than 1.3x (armsim.analysis.insight.simd_gain)
    gain = {o["index"]: (o.get("simd_gain") or {}).get("reason", "")
            for o in profiles.get("simd", {}).get("ops", [])}
    if any(gain.values()):
        head.append('<th class="l">why simd gains little</th>')
    body = []
    for r in rows:
        first = r["paths"][paths[0]] if paths[0] in r["paths"] else next(iter(r["paths"].values()))
        kernel = first.get("kernel", "")
        ref = not first.get("simulated", True) or first.get("reference", False)
        cells = [f'<td class="l" data-v="{r["index"]}">{r["index"]}</td>',
                 f'<td class="l" data-v="{_e(r["op"])}">{_e(r["op"])}</td>',
                 f'<td class="l{" ref" if ref else ""}" data-v="{_e(kernel)}">{_e(kernel)}</td>',
                 f'<td data-v="{r["macs"]}">{_fmt(r["macs"])}</td>']
        for p in paths:
            o = r["paths"].get(p)
            if o is None:
                cells += ['<td data-v="">-</td>'] * 2
            else:
                cells += [f'<td data-v="{o["instructions"]}">{_fmt(o["instructions"])}</td>',
                          f'<td data-v="{o["cycles"]}">{_fmt(o["cycles"])}</td>']
        if "simd" in paths and "scalar" in paths:
            s, c = r["paths"].get("simd"), r["paths"].get("scalar")
            ratio = c["cycles"] / s["cycles"] if s and c and s["cycles"] else None
            cells.append(f'<td data-v="{ratio if ratio is not None else ""}">'
                         f'{"-" if ratio is None else f"{ratio:.2f}x"}</td>')
        if why:
            reason = why.get(str(r["index"]), "")
            cells.append(f'<td class="l why" data-v="{_e(reason)}">{_e(reason)}</td>')
        if any(gain.values()):
            reason = gain.get(r["index"], "")
            cells.append(f'<td class="l simd-gain" data-v="{_e(reason)}">{_e(reason)}</td>')
        body.append(f'<tr data-index="{r["index"]}">' + "".join(cells) + "</tr>")

    arena_text = ""
    if arena:
        arena_text = (f'<p class="meta">arena {_fmt(arena.get("total_bytes"))} bytes: head '
                      f'(planned tensors and scratch) {_fmt(arena.get("head_bytes"))}, tail '
                      f'(persistent) {_fmt(arena.get("tail_bytes"))}; {len(tensors)} buffers.</p>')
    n_ops = len(rows)
    data = {"paths": paths, "ops": len(rows),
            "totals": {p: profiles[p].get("total", {}).get("cycles") for p in paths}}
    data_json = json.dumps(data).replace("</", "<\\/")
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{_e(title)}</title>
<style>{_CSS}</style></head>
<body>
<h1>{_e(title)}</h1>
<p class="meta">{_e(meta)}</p>
<script type="application/json" id="report-data">{data_json}</script>
<div id="summary" data-rendered="no"></div>
<h2>Totals</h2>
<table id="totals"><thead><tr><th class="l">path</th><th>MACs</th><th>instructions</th>
<th>cycles</th><th>latency ms</th><th>speed-up vs scalar</th></tr></thead>
<tbody>{''.join(totals)}</tbody></table>
<h2>Cycles per op</h2>
{_cycle_bars(rows, paths)}
<h2>Cycles by stage ({_e(paths[0])})</h2>
<p class="meta">stages: the code region (im2col, requantize, TFLM glue), else the kind of
instruction; "calibrated" is bookkeeping fitted to measured counts. The segments of each
bar add up to the op's cycles.</p>
{_stage_chart(paths[0], profiles[paths[0]])}
<h2>Instruction mix (by timing class)</h2>
{_mix_chart(paths, profiles)}
<h2>Arena layout</h2>
{arena_text}
{_arena_chart(tensors, n_ops, arena.get("head_bytes", 0)) if tensors else '<p>no arena plan</p>'}
<h2>Per-op table</h2>
<table id="op-table"><thead><tr>{''.join(head)}</tr></thead>
<tbody>{''.join(body)}</tbody></table>
<script>{_JS}</script>
</body></html>
"""


def write_html(report, path):
    """Write the report as one self-contained HTML file."""
    text = render_html(report)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


__all__ = ["write_html", "render_html", "ReportError"]
