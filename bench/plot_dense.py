#!/usr/bin/env python3
"""Plots boids-bench's packed-flock steps: time per step against the neighbours a boid
sees, one line per cap, the library's step beside one's own loop.

    boids-bench --benchmark_filter='dense2d' --benchmark_out=dense.json --benchmark_out_format=json
    bench/plot_dense.py dense.json docs/bench/dense_steps.svg

Writes a self-contained SVG (no plotting library needed) and prints the table as
Markdown. A malformed or foreign file gets a one-line error and exit status 1.
"""
import json
import math
import re
import sys

NAME = re.compile(r"step/(dense2d|dense2d_own_loop|dense3d|dense3d_own_loop)/grid/(\d+)/(patch|ball):([\d.]+)/cone:(\d+)/cap:(\d+)/\d")


def load(path):
    try:
        data = json.load(open(path))
        benchmarks = data["benchmarks"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        sys.exit(f"plot_dense.py: cannot read {path}: {e}")
    rows = {}
    for b in benchmarks:
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
            continue
        m = NAME.match(b.get("run_name", b.get("name", "")))
        if not m:
            continue
        kind, n, key, extent, cone, cap = m.groups()
        unit = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}[b["time_unit"]]
        rows[(kind, int(n), float(extent), int(cone), int(cap))] = (b["real_time"] * unit, b.get("neighbors_per_boid", 0),
                                                                     b.get("off_kernel", 0), b.get("cell_per_radius", 0))
    if not rows:
        sys.exit(f"plot_dense.py: no step/dense results in {path}")
    return rows


def svg(rows, path, dim="dense2d", cone=360):
    w, h, pad = 680, 420, 64
    caps = [7, 16, 256, 0]
    colors = {7: "#1f77b4", 16: "#2ca02c", 256: "#ff7f0e", 0: "#d62728"}
    series = {}
    for (kind, n, extent, c, cap), (ms, nbrs, _, _) in rows.items():
        if c != cone or kind not in (dim, dim + "_own_loop"):
            continue
        series.setdefault((kind, cap), []).append((nbrs, ms))
    xs = [x for s in series.values() for x, _ in s]
    ys = [y for s in series.values() for _, y in s]
    lx0, lx1 = math.log10(min(xs)) - 0.05, math.log10(max(xs)) + 0.05
    ly0, ly1 = math.floor(math.log10(min(ys))), math.ceil(math.log10(max(ys)))
    X = lambda x: pad + (math.log10(x) - lx0) / (lx1 - lx0) * (w - 2 * pad - 120)
    Y = lambda y: h - pad - (math.log10(y) - ly0) / (ly1 - ly0) * (h - 2 * pad)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="12">',
           f'<rect width="{w}" height="{h}" fill="white"/>',
           f'<text x="{w/2}" y="22" text-anchor="middle" font-size="14">A step of 5,000 packed boids ({"no cone" if cone == 360 else f"cone {cone}"}), one thread</text>',
           f'<line x1="{pad}" y1="{h-pad}" x2="{w-pad-120}" y2="{h-pad}" stroke="black"/>',
           f'<line x1="{pad}" y1="{pad}" x2="{pad}" y2="{h-pad}" stroke="black"/>',
           f'<text x="{(w-120)/2}" y="{h-18}" text-anchor="middle">neighbours a boid sees within the radius (log)</text>',
           f'<text x="16" y="{h/2}" transform="rotate(-90 16 {h/2})" text-anchor="middle">ms a step (log)</text>']
    for x in sorted(set(round(x) for x in xs)):
        out.append(f'<text x="{X(x):.1f}" y="{h-pad+16}" text-anchor="middle">{x}</text>')
    for e in range(ly0, ly1 + 1):
        out.append(f'<text x="{pad-6}" y="{Y(10**e)+4:.1f}" text-anchor="end">{10**e:g}</text>')
        out.append(f'<line x1="{pad}" y1="{Y(10**e):.1f}" x2="{w-pad-120}" y2="{Y(10**e):.1f}" stroke="#ddd"/>')
    legend = 0
    for own in (False, True):
        for cap in caps:
            pts = sorted(series.get((dim + ("_own_loop" if own else ""), cap), []))
            if not pts:
                continue
            line = " ".join(f"{X(x):.1f},{Y(y):.1f}" for x, y in pts)
            dash = ' stroke-dasharray="5,4"' if own else ""
            out.append(f'<polyline points="{line}" fill="none" stroke="{colors[cap]}" stroke-width="2"{dash}/>')
            label = ("own loop, " if own else "flock_step, ") + ("no cap" if cap == 0 else f"cap {cap}")
            ly = pad + 16 * legend
            out.append(f'<line x1="{w-pad-110}" y1="{ly-4}" x2="{w-pad-90}" y2="{ly-4}" stroke="{colors[cap]}" stroke-width="2"{dash}/>')
            out.append(f'<text x="{w-pad-85}" y="{ly}">{label}</text>')
            legend += 1
    out.append("</svg>")
    open(path, "w").write("\n".join(out))


def table(rows):
    print("| scene | cone | cap | neighbours seen | `flock_step` ms | own loop ms | own / step | off kernel | cell / radius |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for (kind, n, extent, cone, cap), (ms, nbrs, off, cell) in sorted(rows.items()):
        if kind.endswith("_own_loop"):
            continue
        own = rows.get((kind + "_own_loop", n, extent, cone, cap))
        scene = f"{'2D' if kind == 'dense2d' else '3D'} {n:,}, {'patch' if kind == 'dense2d' else 'ball'} {extent:g}"
        own_ms = f"{own[0]:.2f}" if own else "-"
        ratio = f"{own[0] / ms:.0f}x" if own else "-"
        print(f"| {scene} | {cone} | {'none' if cap == 0 else cap} | {nbrs:.0f} | {ms:.2f} | {own_ms} | {ratio} | {off:.0f} | {cell:.2f} |")


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: plot_dense.py RESULTS.json OUT.svg")
    rows = load(sys.argv[1])
    svg(rows, sys.argv[2])
    table(rows)


if __name__ == "__main__":
    main()
