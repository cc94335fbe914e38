#!/usr/bin/env python3
"""The page in a real browser: builds it (scripts/build-web.sh), serves it on 127.0.0.1,
opens it in headless Chromium (driven over --remote-debugging-pipe, no extra packages)
with ?test=1, waits for its checks and reads them: every scene draws boids in the boid
colour and shows finite gauges, moving the alignment slider changes the flock's order,
and the lesson fixture run 120 steps in WebAssembly equals boids-lab's native run byte
for byte. Then takes a screenshot of the flock (checked for boid-colour pixels) and
writes the step times at 1,000, 10,000 and 100,000 boids.

    web_check.py ROOT BOIDS_LAB OUT_DIR
Exit 77 (skipped) without em++ or chromium; 1 when a check fails."""
import base64
import functools
import http.server
import json
import os
import shutil
import struct
import subprocess
import sys
import threading
import time
import zlib


def skip(why):
    print("web_check: skipped: " + why)
    sys.exit(77)


def fail(why):
    print("web_check: FAILED: " + why)
    sys.exit(1)


class Browser:
    """Chromium over --remote-debugging-pipe: JSON messages ending in NUL on fds 3 and 4."""

    def __init__(self, exe):
        to_r, self.to_w = os.pipe()
        self.from_r, from_w = os.pipe()
        self.proc = subprocess.Popen(
            [exe, "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe", "--window-size=1320,640",
             "about:blank"],
            close_fds=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=lambda: (os.dup2(to_r, 3), os.dup2(from_w, 4)))  # the pipe's own ends are close-on-exec
        os.close(to_r)
        os.close(from_w)
        self.next_id, self.buffer = 0, b""

    def send(self, method, params=None, session=None):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.to_w, json.dumps(msg).encode() + b"\0")
        while True:
            while b"\0" not in self.buffer:
                chunk = os.read(self.from_r, 1 << 20)
                if not chunk:
                    fail("chromium closed its pipe")
                self.buffer += chunk
            raw, self.buffer = self.buffer.split(b"\0", 1)
            reply = json.loads(raw)
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    fail(method + ": " + json.dumps(reply["error"]))
                return reply["result"]

    def close(self):
        self.proc.kill()


def count_colour(png, rgb):
    """Pixels of exactly `rgb` in an 8-bit RGB or RGBA PNG (no interlace)."""
    if png[:8] != b"\x89PNG\r\n\x1a\n":
        fail("the screenshot is not a PNG")
    pos, idat, width, height, channels = 8, b"", 0, 0, 0
    while pos < len(png):
        length, kind = struct.unpack(">I4s", png[pos:pos + 8])
        data = png[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", data[:10])
            channels = {2: 3, 6: 4}.get(colour, 0)
            if depth != 8 or not channels:
                fail("unexpected PNG format")
        elif kind == b"IDAT":
            idat += data
        pos += 12 + length
    raw, stride, count = zlib.decompress(idat), width * channels, 0
    prev = bytearray(stride)
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b, c = prev[i], prev[i - channels] if i >= channels else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        for x in range(0, stride, channels):
            if tuple(line[x:x + 3]) == rgb:
                count += 1
        prev = line
    return count


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    root, lab, out = sys.argv[1:]
    chromium = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    if not shutil.which("em++"):
        skip("em++ not found (apt-get install emscripten)")
    if not chromium:
        skip("chromium not found (apt-get install chromium)")
    site = os.path.join(out, "web")
    build = subprocess.run([os.path.join(root, "scripts", "build-web.sh"), os.path.abspath(site)], capture_output=True,
                           text=True)
    if build.returncode != 0:
        fail("build-web.sh: " + build.stdout + build.stderr)
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    handler = functools.partial(Quiet, directory=site)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = "http://127.0.0.1:%d/index.html" % server.server_address[1]
    browser = Browser(chromium)
    try:
        target = browser.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = browser.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        browser.send("Page.enable", session=session)
        browser.send("Page.navigate", {"url": url + "?test=1"}, session=session)
        text, deadline = "", time.time() + 240
        while not text.endswith("done") and time.time() < deadline:
            time.sleep(0.5)
            got = browser.send("Runtime.evaluate", {"expression": "document.getElementById('result') ? "
                                                    "document.getElementById('result').textContent : ''",
                                                    "returnByValue": True}, session=session)
            text = got["result"].get("value", "")
        if not text.endswith("done"):
            fail("the page's checks did not finish: " + text)
        browser.send("Page.navigate", {"url": url + "?scene=flock"}, session=session)
        time.sleep(4)
        shot = base64.b64decode(browser.send("Page.captureScreenshot", {"format": "png"}, session=session)["data"])
    finally:
        browser.close()
        server.shutdown()
    with open(os.path.join(out, "web-flock.png"), "wb") as f:
        f.write(shot)
    lines = text.splitlines()
    print("\n".join(l if not l.startswith("lesson120") else "lesson120 (%d bytes)" % len(l) for l in lines))
    ok = True
    for l in lines:
        w = l.split()
        if w[0] == "scene":
            fields = dict(zip(w[2::2], w[3::2]))
            if int(fields["boid_pixels"]) < 50 or fields["finite"] != "true":
                print("web_check: scene %s: too few boid pixels or a gauge not finite" % w[1])
                ok = False
        elif w[0] == "slider" and w[-1] != "true":
            print("web_check: moving the alignment slider did not change the flock")
            ok = False
    wasm = base64.b64decode(next(l for l in lines if l.startswith("lesson120")).split()[1])
    native_csv = os.path.join(out, "lesson120-native.csv")
    fixture = os.path.join(root, "tests", "fixtures", "lesson", "seed7_all_60_initial.csv")
    subprocess.run([lab, "flock", "--init=" + fixture, "--steps=120", "--out=" + native_csv], check=True,
                   stdout=subprocess.DEVNULL)
    with open(native_csv, "rb") as f:
        native = f.read()
    if wasm != native:
        print("web_check: the WebAssembly flock differs from the native one after 120 steps")
        ok = False
    else:
        print("web_check: lesson fixture, 120 steps: WebAssembly = native, %d bytes" % len(native))
    boid = count_colour(shot, (0x8c, 0xd9, 0xff))
    print("web_check: screenshot %s: %d boid-colour pixels" % (os.path.join(out, "web-flock.png"), boid))
    ok = ok and boid > 300
    # The same flock natively, default packs and scalar packs, for the side-by-side.
    speeds = {"wasm": {int(l.split()[1]): float(l.split()[2]) for l in lines if l.startswith("speed")}}
    cxx = shutil.which("c++") or shutil.which("g++")
    for name, flags in (("native", []), ("native-scalar", ["-DBOIDS_NO_VECTOR_EXTENSIONS"])):
        exe = os.path.join(out, "web-speed-" + name)
        subprocess.run([cxx, "-std=c++17", "-O3", *flags, "-I" + os.path.join(root, "include"),
                        "-I" + os.path.join(root, "examples", "lab"), "-I" + os.path.join(root, "examples", "demo"),
                        "-I" + os.path.join(root, "web"), os.path.join(root, "web", "native_speed.cpp"), "-o", exe,
                        "-pthread"], check=True)
        run = subprocess.run([exe], capture_output=True, text=True, check=True).stdout
        speeds[name] = {int(l.split()[1]): float(l.split()[2]) for l in run.splitlines()}
    with open(os.path.join(out, "web-speed.txt"), "w") as f:
        f.write("boids wasm_ms native_ms native_scalar_ms\n")
        for n in (1000, 10000, 100000):
            f.write("%d %.3f %.3f %.3f\n" % (n, speeds["wasm"][n], speeds["native"][n], speeds["native-scalar"][n]))
    with open(os.path.join(out, "web-speed.txt")) as f:
        print(f.read().rstrip())
    print("1 passed, 0 failed" if ok else "0 passed, 1 failed")
    sys.exit(0 if ok else 1)


main()
