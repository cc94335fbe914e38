#!/usr/bin/env python3
"""Runs a boids-lab command and checks its last line, a JSON object, against a
condition written in Python over the object's fields:
    lab_json_check.py 'passed == 24 and min_separation >= 0.9999' -- boids-lab formation --json
Exit 0 when the condition holds; 1 (with the line and the condition) when it does not."""
import json
import subprocess
import sys

if len(sys.argv) < 4 or sys.argv[2] != "--":
    sys.exit("usage: lab_json_check.py CONDITION -- COMMAND...")
condition, command = sys.argv[1], sys.argv[3:]
run = subprocess.run(command, capture_output=True, text=True)
if run.returncode != 0:
    sys.exit(f"{' '.join(command)}: exit {run.returncode}: {run.stderr.strip()}")
lines = run.stdout.strip().splitlines()
try:
    fields = json.loads(lines[-1])
except (IndexError, ValueError):
    sys.exit(f"{' '.join(command)}: the last line is not a JSON object")
if not eval(condition, {"__builtins__": {"abs": abs, "min": min, "max": max}}, dict(fields)):
    print(lines[-1])
    sys.exit(f"not true: {condition}")
print(f"ok: {condition}")
