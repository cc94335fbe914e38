#!/usr/bin/env python3
"""Draws a `boids-lab starlings --out=FLOCK.csv` flock as an SVG: the top view (x, z)
with the roost radius, and the side view (x, y) with the altitude band.

    plot-starlings.py FLOCK.csv OUT.svg [--roost-radius=R] [--title=T]

or draws the field measures of `boids-lab starlings --measure=FILE.json` runs: the
neighbour anisotropy gamma(n), the correlation functions C(r), the correlation
lengths against the flock's size (one point per file) and a turn's arrival times:

    plot-starlings.py --measures OUT.svg RUN.json [RUN.json ...] [--title=T]

The roost centre is the model's, (-25, 0, -30) m; R defaults to 60 m (3,000 birds).
"""
import csv
import json
import math
import sys

ROOST = (-25.0, -30.0)


def panel(out, x0, y0, w, h, title, xlabel, xmax, ymin, ymax, series, lines=()):
    """One plot: series of (points, colour, joined) in a w x h box at (x0, y0)."""
    out.append('<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#555"/>' % (x0, y0, w, h))
    out.append('<text x="%d" y="%d">%s</text>' % (x0, y0 - 8, title))
    out.append('<text x="%d" y="%d">%s</text>' % (x0 + w - 8 * len(xlabel), y0 + h + 18, xlabel))
    out.append('<text x="%d" y="%d">%g</text><text x="%d" y="%d">%g</text>' % (x0 - 34, y0 + h, ymin, x0 - 34, y0 + 10, ymax))
    out.append('<text x="%d" y="%d">%g</text>' % (x0 + w - 20, y0 + h + 32, xmax))

    def at(x, y):
        return x0 + w * x / xmax, y0 + h - h * (y - ymin) / (ymax - ymin)
    for y, colour, label in lines:
        a, b = at(0, y), at(xmax, y)
        out.append('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-dasharray="4 3"/>' % (a[0], a[1], b[0], b[1], colour))
        out.append('<text x="%.1f" y="%.1f" fill="%s">%s</text>' % (b[0] - 8 * len(label), a[1] - 4, colour, label))
    for points, colour, joined in series:
        pts = [at(x, min(max(y, ymin), ymax)) for x, y in points if x is not None and y is not None and 0 <= x <= xmax]
        if joined and len(pts) > 1:
            out.append('<polyline fill="none" stroke="%s" points="%s"/>' % (colour, " ".join("%.1f,%.1f" % p for p in pts)))
        for p in pts:
            out.append('<circle cx="%.1f" cy="%.1f" r="%s" fill="%s"/>' % (p[0], p[1], "2.5" if joined else "1.2", colour))


def measures(argv, title):
    if len(argv) < 2:
        sys.exit(__doc__)
    runs = []
    for path in argv[1:]:
        try:
            with open(path) as f:
                runs.append(json.load(f))
        except (OSError, ValueError) as e:
            sys.exit("plot-starlings: %s: %s" % (path, e))
        if not isinstance(runs[-1], dict) or "gamma" not in runs[-1] or "correlation" not in runs[-1]:
            sys.exit("plot-starlings: %s: not a --measure file" % path)
    w, h = 940, 640
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d">' % (w, h, w, h),
           '<rect width="100%" height="100%" fill="#10131a"/>',
           '<style>text{font:12px sans-serif;fill:#cfd6e4}</style>',
           '<text x="20" y="22">%s</text>' % (title or "starling field measures, %d runs" % len(runs))]
    # gamma(n): the mean over the runs with the bird count nearest 1,000 and, among
    # them, the most snapshots (starling-field-data.py's long runs for gamma).
    counts = sorted({r.get("birds", 0) for r in runs}, key=lambda n: abs(n - 1000))
    near = [r for r in runs if r.get("birds") == counts[0] and r["gamma"] and None not in r["gamma"]]
    most = max((r.get("anisotropy_snapshots", 0) for r in near), default=0)
    gam = [r["gamma"] for r in near if r.get("anisotropy_snapshots", 0) == most]
    if gam:
        mean = [sum(g[i] for g in gam) / len(gam) for i in range(len(gam[0]))]
        panel(out, 60, 60, 380, 220, "neighbour anisotropy gamma(n), %d birds, %d runs" % (counts[0], len(gam)),
              "rank n", len(mean) + 1, 0, 1,
              [(list(zip(range(1, len(mean) + 1), mean)), "#8cd9ff", True)], [(1.0 / 3, "#4ccc66", "1/3")])
    # C(r): the largest run's.
    big = max(runs, key=lambda r: r.get("birds", 0))
    c = big["correlation"]
    r = c["r_over_size"]
    panel(out, 540, 60, 380, 220, "C(r), %d birds: speed (orange), direction (blue)" % big["birds"], "r / L", 1, -1, 1,
          [(list(zip(r, c["speed"])), "#ffb347", True), (list(zip(r, c["direction"])), "#8cd9ff", True)],
          [(0, "#666", "")])
    # xi against L, one point per run.
    pts = [(q["size_mean"], q["xi_speed_mean"], q["xi_direction_mean"]) for q in runs if q.get("size_mean")]
    if pts:
        lmax = max(p[0] for p in pts) * 1.1
        ymax = max(max(p[1], p[2]) for p in pts) * 1.1 or 1
        panel(out, 60, 360, 380, 220, "correlation length xi against size L", "L", round(lmax, 1), 0, round(ymax, 1),
              [([(p[0], p[1]) for p in pts], "#ffb347", False), ([(p[0], p[2]) for p in pts], "#8cd9ff", False)])
    turns = [q for q in runs if q.get("turn")]
    if turns:
        t = max(turns, key=lambda q: q["birds"])["turn"]
        pairs = [(d, a) for d, a in zip(t["distance"], t["arrival"]) if a is not None]
        if pairs:
            dmax = max(d for d, _ in pairs) * 1.05 or 1
            amax = max(a for _, a in pairs) * 1.1 or 1
            panel(out, 540, 360, 380, 220, "turn: turning time (s) against distance from the first bird", "distance",
                  round(dmax, 1), 0, round(amax, 2), [(pairs, "#8cd9ff", False)])
    out.append("</svg>")
    try:
        with open(argv[0], "w") as f:
            f.write("\n".join(out) + "\n")
    except OSError as e:
        sys.exit("plot-starlings: %s" % e)


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--measures":
        rest = [a for a in sys.argv[2:] if not a.startswith("--title=")]
        titles = [a[len("--title="):] for a in sys.argv[2:] if a.startswith("--title=")]
        measures(rest, titles[-1] if titles else "")
        return
    opts = {"roost-radius": "60", "title": ""}
    pos = []
    for a in sys.argv[1:]:
        if a.startswith("--") and "=" in a:
            k, v = a[2:].split("=", 1)
            if k not in opts:
                sys.exit("plot-starlings: unknown flag --" + k)
            opts[k] = v
        else:
            pos.append(a)
    if len(pos) != 2:
        sys.exit(__doc__)
    try:
        radius = float(opts["roost-radius"])
    except ValueError:
        sys.exit("plot-starlings: --roost-radius is not a number")
    birds = []
    try:
        with open(pos[0], newline="") as f:
            rows = csv.reader(f)
            header = next(rows, None)
            if header != ["x", "y", "z", "vx", "vy", "vz"]:
                sys.exit("plot-starlings: %s: expected the header x,y,z,vx,vy,vz" % pos[0])
            for n, r in enumerate(rows, start=2):
                try:
                    birds.append(tuple(float(c) for c in r))
                except ValueError:
                    sys.exit("plot-starlings: %s:%d: not a number" % (pos[0], n))
                if len(r) != 6:
                    sys.exit("plot-starlings: %s:%d: expected 6 columns" % (pos[0], n))
    except OSError as e:
        sys.exit("plot-starlings: %s" % e)
    if not birds:
        sys.exit("plot-starlings: %s holds no birds" % pos[0])

    # Two panels side by side, one metre the same size in both.
    span = max(2.4 * radius, max(abs(b[0] - ROOST[0]) for b in birds) * 2.2, max(abs(b[2] - ROOST[1]) for b in birds) * 2.2)
    scale = 420.0 / span
    w, h = 900, 520
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d">' % (w, h, w, h),
           '<rect width="100%" height="100%" fill="#10131a"/>',
           '<style>text{font:13px sans-serif;fill:#cfd6e4}</style>']
    title = opts["title"] or "%d starlings" % len(birds)
    out.append('<text x="20" y="24">%s: top view (x, z) and side view (x, altitude)</text>' % title)

    # Top view: centred on the roost.
    tx, tz = 20 + 210, 50 + 230
    out.append('<circle cx="%.1f" cy="%.1f" r="%.1f" fill="none" stroke="#4ccc66" stroke-dasharray="4 3"/>' % (tx, tz, radius * scale))
    out.append('<circle cx="%.1f" cy="%.1f" r="3" fill="#4ccc66"/>' % (tx, tz))
    out.append('<text x="%.1f" y="%.1f">roost, R = %.0f m</text>' % (tx + 6, tz - 6, radius))
    for b in birds:
        out.append('<circle cx="%.1f" cy="%.1f" r="0.9" fill="#8cd9ff"/>' % (tx + (b[0] - ROOST[0]) * scale, tz + (b[2] - ROOST[1]) * scale))

    # Side view: x against altitude, ground at the bottom, the altitude band 11-34 m.
    sx0, ground = 470, 480
    xmid = sum(b[0] for b in birds) / len(birds)
    vscale = 8.0  # px per metre of altitude
    hscale = 420.0 / max(60.0, 2.2 * max(abs(b[0] - xmid) for b in birds))
    out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#555"/>' % (sx0, ground, sx0 + 420, ground))
    for alt, label in ((11, "11 m"), (34, "34 m")):
        y = ground - alt * vscale
        out.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#666" stroke-dasharray="3 4"/>' % (sx0, y, sx0 + 420, y))
        out.append('<text x="%d" y="%.1f">%s</text>' % (sx0 + 4, y - 4, label))
    for b in birds:
        out.append('<circle cx="%.1f" cy="%.1f" r="0.9" fill="#8cd9ff"/>' % (sx0 + 210 + (b[0] - xmid) * hscale, ground - b[1] * vscale))
    out.append('<text x="%d" y="%d">ground</text>' % (sx0, ground + 18))
    out.append("</svg>")
    try:
        with open(pos[1], "w") as f:
            f.write("\n".join(out) + "\n")
    except OSError as e:
        sys.exit("plot-starlings: %s" % e)


if __name__ == "__main__":
    main()
