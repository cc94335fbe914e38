#!/usr/bin/env python3
"""Draws a `boids-lab crowd --trace` CSV as an SVG: every agent's path (coloured by
where it started), the agents as discs where they stand at the end, and obstacles.

    plot-crowd.py TRACE.csv OUT.svg --radius=R [--title=T] [--every=N]
                  [--polygons="x,y x,y ...;x,y ..."] [--id=COLUMN] [--at=STEP,STEP...]

--id names the column that tells agents apart (agent; member for boids-lab formation);
--at draws the agents as discs at those steps too (lighter), besides the last.
"""
import csv
import math
import sys


def main():
    opts = {"radius": "1.5", "title": "", "every": "10", "polygons": "", "id": "agent", "at": ""}
    pos = []
    for a in sys.argv[1:]:
        if a.startswith("--") and "=" in a:
            k, v = a[2:].split("=", 1)
            if k not in opts:
                sys.exit("plot-crowd: unknown flag --" + k)
            opts[k] = v
        else:
            pos.append(a)
    if len(pos) != 2:
        sys.exit(__doc__)
    try:
        radius, every = float(opts["radius"]), max(1, int(opts["every"]))
        at = {int(a) for a in opts["at"].split(",") if a.strip()}
        polygons = [[tuple(map(float, p.split(","))) for p in poly.split()] for poly in opts["polygons"].split(";")
                    if poly.strip()]
        paths = {}
        with open(pos[0], newline="") as f:
            for row in csv.DictReader(f):
                step, agent = int(float(row["step"])), int(float(row[opts["id"]]))
                paths.setdefault(agent, []).append((step, float(row["x"]), float(row["y"])))
    except (OSError, ValueError, KeyError) as e:
        sys.exit("plot-crowd: " + str(e))
    if not paths:
        sys.exit("plot-crowd: the trace has no rows")
    xs = [p[1] for path in paths.values() for p in path] + [v[0] for poly in polygons for v in poly]
    ys = [p[2] for path in paths.values() for p in path] + [v[1] for poly in polygons for v in poly]
    x0, x1, y0, y1 = min(xs) - 2 * radius, max(xs) + 2 * radius, min(ys) - 2 * radius, max(ys) + 2 * radius
    size = 640.0
    scale = size / max(x1 - x0, y1 - y0)
    w, h = (x1 - x0) * scale, (y1 - y0) * scale + 30

    def sx(x):
        return (x - x0) * scale

    def sy(y):
        return 30 + (y1 - y) * scale

    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f">' % (w, h, w, h),
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="8" y="20" font-family="sans-serif" font-size="14">%s</text>' % opts["title"]]
    for poly in polygons:
        out.append('<polygon points="%s" fill="#bbb" stroke="#666"/>' %
                   " ".join("%.1f,%.1f" % (sx(x), sy(y)) for x, y in poly))
    for agent in sorted(paths):
        path = paths[agent]
        sx0, sy0 = path[0][1], path[0][2]
        hue = (math.degrees(math.atan2(sy0 - (y0 + y1) / 2, sx0 - (x0 + x1) / 2)) + 360) % 360
        pts = [p for i, p in enumerate(path) if i % every == 0] + [path[-1]]
        out.append('<polyline points="%s" fill="none" stroke="hsl(%.0f,70%%,45%%)" stroke-width="0.8" opacity="0.7"/>' %
                   (" ".join("%.1f,%.1f" % (sx(x), sy(y)) for _, x, y in pts), hue))
        out.append('<circle cx="%.1f" cy="%.1f" r="%.1f" fill="hsl(%.0f,70%%,45%%)" opacity="0.8"/>' %
                   (sx(path[-1][1]), sy(path[-1][2]), max(radius * scale, 0.8), hue))
        for step, x, y in path:
            if step in at:
                out.append('<circle cx="%.1f" cy="%.1f" r="%.1f" fill="hsl(%.0f,70%%,45%%)" opacity="0.45"/>' %
                           (sx(x), sy(y), max(radius * scale, 0.8), hue))
    out.append("</svg>")
    try:
        with open(pos[1], "w") as f:
            f.write("\n".join(out) + "\n")
    except OSError as e:
        sys.exit("plot-crowd: " + str(e))


main()
