#!/usr/bin/env python3
"""Draws a `boids-lab starlings --out=FLOCK.csv` flock as an SVG: the top view (x, z)
with the roost radius, and the side view (x, y) with the altitude band.

    plot-starlings.py FLOCK.csv OUT.svg [--roost-radius=R] [--title=T]

The roost centre is the model's, (-25, 0, -30) m; R defaults to 60 m (3,000 birds).
"""
import csv
import math
import sys

ROOST = (-25.0, -30.0)


def main():
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
