#!/usr/bin/env python3
"""Plots all-pairs against grid from boids-bench's JSON (median of repetitions).

    boids-bench --benchmark_repetitions=3 --benchmark_out=results.json --benchmark_out_format=json
    bench/plot.py results.json docs/bench/all_pairs_vs_grid.svg

Writes a self-contained SVG (no plotting library needed) and prints the table.
"""
import json
import math
import re
import sys


def medians(path):
    data = json.load(open(path))
    out = {}
    for b in data["benchmarks"]:
        if b.get("aggregate_name", "median") != "median" or b.get("run_type") == "iteration" and "aggregate_name" in b:
            continue
        m = re.match(r"(neighbors/metric/2d|step/lesson)/(all_pairs|grid|auto)/(\d+)", b["run_name"] if "run_name" in b else b["name"])
        if not m:
            continue
        unit = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}[b["time_unit"]]
        out.setdefault(m.group(1), {}).setdefault(m.group(2), {})[int(m.group(3))] = b["real_time"] * unit
    return out


def svg(series, title, path):
    w, h, pad = 640, 400, 60
    xs = sorted({n for s in series.values() for n in s})
    ys = [t for s in series.values() for t in s.values()]
    lx0, lx1 = math.log10(min(xs)), math.log10(max(xs))
    ly0, ly1 = math.log10(min(ys)), math.log10(max(ys))
    X = lambda n: pad + (math.log10(n) - lx0) / max(lx1 - lx0, 1e-9) * (w - 2 * pad)
    Y = lambda t: h - pad - (math.log10(t) - ly0) / max(ly1 - ly0, 1e-9) * (h - 2 * pad)
    colors = {"all_pairs": "#d62728", "grid": "#1f77b4", "auto": "#2ca02c"}
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="12">',
             f'<rect width="{w}" height="{h}" fill="white"/>',
             f'<text x="{w/2}" y="20" text-anchor="middle" font-size="14">{title}</text>',
             f'<line x1="{pad}" y1="{h-pad}" x2="{w-pad}" y2="{h-pad}" stroke="black"/>',
             f'<line x1="{pad}" y1="{pad}" x2="{pad}" y2="{h-pad}" stroke="black"/>',
             f'<text x="{w/2}" y="{h-15}" text-anchor="middle">boids (log)</text>',
             f'<text x="15" y="{h/2}" transform="rotate(-90 15 {h/2})" text-anchor="middle">time per step, us (log)</text>']
    for n in xs:
        parts.append(f'<text x="{X(n)}" y="{h-pad+15}" text-anchor="middle">{n}</text>')
    for e in range(math.floor(ly0), math.ceil(ly1) + 1):
        t = 10 ** e
        if min(ys) <= t <= max(ys):
            parts.append(f'<text x="{pad-5}" y="{Y(t)+4}" text-anchor="end">{t:g}</text>')
    for k, (name, s) in enumerate(sorted(series.items())):
        pts = " ".join(f"{X(n):.1f},{Y(t):.1f}" for n, t in sorted(s.items()))
        c = colors.get(name, "black")
        parts.append(f'<polyline points="{pts}" fill="none" stroke="{c}" stroke-width="2"/>')
        parts.append(f'<text x="{w-pad-80}" y="{pad+15*k}" fill="{c}">{name}</text>')
    parts.append("</svg>")
    open(path, "w").write("\n".join(parts))


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: plot.py RESULTS.json OUT.svg")
    data = medians(sys.argv[1])
    if "neighbors/metric/2d" not in data:
        sys.exit("plot.py: no neighbors/metric/2d results in " + sys.argv[1])
    svg(data["neighbors/metric/2d"], "Metric neighbour search, standard 2D scene (median)", sys.argv[2])
    for group, series in sorted(data.items()):
        print(group)
        for name, s in sorted(series.items()):
            print("  %-10s" % name + "  ".join("%d: %.1f us" % (n, t) for n, t in sorted(s.items())))


if __name__ == "__main__":
    main()
