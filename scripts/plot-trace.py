#!/usr/bin/env python3
"""Draws a boids-lab --trace CSV as an SVG: the vehicle's path (blue), the target's
(orange, dashed), obstacles, a path corridor and bounds; where the trace has a
heading column (the turning modes), the vehicle's orientation as a short line every
--every steps.

    plot-trace.py TRACE.csv OUT.svg [--title=T] [--obstacles="X,Y,R;..."]
                  [--path="X,Y;..." --path-radius=R] [--bounds=X0,Y0,X1,Y1] [--no-target]
                  [--every=N]
"""
import math
import csv
import sys


def parse(argv):
    opts = {"no-target": "", "title": "", "obstacles": "", "path": "", "path-radius": "0", "bounds": "", "every": "20"}
    pos = []
    for a in argv:
        if a == "--no-target":
            opts["no-target"] = "1"
        elif a.startswith("--") and "=" in a:
            k, v = a[2:].split("=", 1)
            if k not in opts:
                sys.exit("plot-trace: unknown flag --" + k)
            opts[k] = v
        else:
            pos.append(a)
    if len(pos) != 2:
        sys.exit(__doc__)
    return pos[0], pos[1], opts


def main():
    trace, out, o = parse(sys.argv[1:])
    rows = list(csv.DictReader(open(trace)))
    if not rows:
        sys.exit("plot-trace: empty trace " + trace)
    xy = [(float(r["x"]), float(r["y"])) for r in rows]
    txy = [(float(r["target_x"]), float(r["target_y"])) for r in rows]
    rocks = [tuple(map(float, s.split(","))) for s in o["obstacles"].split(";") if s]
    path = [tuple(map(float, s.split(","))) for s in o["path"].split(";") if s]
    pts = xy + txy + [(x - r, y - r) for x, y, r in rocks] + [(x + r, y + r) for x, y, r in rocks] + path
    if o["bounds"]:
        b = list(map(float, o["bounds"].split(",")))
        pts += [(b[0], b[1]), (b[2], b[3])]
    x0, x1 = min(p[0] for p in pts) - 20, max(p[0] for p in pts) + 20
    y0, y1 = min(p[1] for p in pts) - 20, max(p[1] for p in pts) + 20
    w = 640
    s = w / max(x1 - x0, 1e-9)
    h = max(160, int((y1 - y0) * s) + 30)
    X = lambda x: (x - x0) * s
    Y = lambda y: (y - y0) * s + 24
    svg = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="13">' % (w, h),
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="8" y="16">%s</text>' % o["title"]]
    if o["bounds"]:
        svg.append('<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="none" stroke="#999" stroke-dasharray="4 3"/>'
                   % (X(b[0]), Y(b[1]), (b[2] - b[0]) * s, (b[3] - b[1]) * s))
    if path:
        pr = float(o["path-radius"]) * s
        d = " ".join("%.1f,%.1f" % (X(x), Y(y)) for x, y in path)
        svg.append('<polyline points="%s" fill="none" stroke="#ddd" stroke-width="%.1f" stroke-linejoin="round" stroke-linecap="round"/>' % (d, 2 * pr))
        svg.append('<polyline points="%s" fill="none" stroke="#888" stroke-width="1"/>' % d)
    for x, y, r in rocks:
        svg.append('<circle cx="%.1f" cy="%.1f" r="%.1f" fill="#ccc" stroke="#666"/>' % (X(x), Y(y), r * s))
    pl = lambda ps: " ".join("%.1f,%.1f" % (X(x), Y(y)) for x, y in ps)
    if not o["no-target"]:
        svg.append('<polyline points="%s" fill="none" stroke="#f28e2b" stroke-width="1.5" stroke-dasharray="5 3"/>' % pl(txy))
        svg.append('<circle cx="%.1f" cy="%.1f" r="5" fill="none" stroke="#f28e2b" stroke-width="2"/>' % (X(txy[-1][0]), Y(txy[-1][1])))
    svg.append('<polyline points="%s" fill="none" stroke="#4e79a7" stroke-width="2"/>' % pl(xy))
    svg.append('<circle cx="%.1f" cy="%.1f" r="4" fill="#4e79a7"/>' % (X(xy[0][0]), Y(xy[0][1])))
    if "heading" in rows[0]:
        every = max(1, int(o["every"]))
        for i, r in enumerate(rows):
            if i % every:
                continue
            a, (x, y) = float(r["heading"]), xy[i]
            svg.append('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#e15759" stroke-width="2"/>'
                       % (X(x), Y(y), X(x) + 14 * math.cos(a), Y(y) + 14 * math.sin(a)))
            svg.append('<circle cx="%.1f" cy="%.1f" r="2.5" fill="#e15759"/>' % (X(x), Y(y)))
    svg.append("</svg>")
    open(out, "w").write("\n".join(svg))


if __name__ == "__main__":
    main()
