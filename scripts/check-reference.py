#!/usr/bin/env python3
"""Checks that docs/reference.md lists every public field of the parameter structs.

For each struct named below, the fields declared in its header (members with a type
and a name, outside functions) must each appear as `name` in the reference's section
for that struct (a heading that names it in backticks). Prints what is missing and
exits 1; exits 0 when the reference is complete. Usage: check-reference.py [ROOT]
"""
import re
import sys
from pathlib import Path

# struct name -> header (under include/boids/)
STRUCTS = {
    "flock_config": "flock/config.hpp",
    "steering_limits": "steer.hpp",
    "world": "neighbors/world.hpp",
    "vision_cone": "neighbors/query.hpp",
    "neighbor": "neighbors/query.hpp",
    "neighborhood_summary": "flock/summary.hpp",
    "boid_view": "agent.hpp",
    "steering": "agent.hpp",
    "oriented_view": "behaviors/orientation.hpp",
    "match_velocity": "behaviors/seek_flee_arrive.hpp",
    "jump": "behaviors/jump.hpp",
    "jump_plan": "behaviors/jump.hpp",
    "avoid_by_raycast": "behaviors/avoid_obstacles.hpp",
    "follow_wall": "behaviors/follow_wall.hpp",
    "wall_selection": "behaviors/wall_grid.hpp",
    "obstacle_selection": "behaviors/obstacle_grid.hpp",
    "sphere_range": "behaviors/pursue_evade.hpp",
    "flock_step_report": "flock/workspace.hpp",
    "separation": "flock/rules.hpp",
    "alignment": "flock/rules.hpp",
    "cohesion": "flock/rules.hpp",
    "seek": "behaviors/seek_flee_arrive.hpp",
    "flee": "behaviors/seek_flee_arrive.hpp",
    "arrive": "behaviors/seek_flee_arrive.hpp",
    "pursue": "behaviors/pursue_evade.hpp",
    "evade": "behaviors/pursue_evade.hpp",
    "offset_pursuit": "behaviors/pursue_evade.hpp",
    "interpose": "behaviors/pursue_evade.hpp",
    "hide": "behaviors/pursue_evade.hpp",
    "sphere": "behaviors/pursue_evade.hpp",
    "wander": "behaviors/wander.hpp",
    "wander_state": "behaviors/wander.hpp",
    "polyline_path": "behaviors/path.hpp",
    "follow_path": "behaviors/path.hpp",
    "flow_field": "behaviors/flow_field.hpp",
    "follow_flow": "behaviors/flow_field.hpp",
    "avoid_obstacles": "behaviors/avoid_obstacles.hpp",
    "avoid_walls": "behaviors/avoid_obstacles.hpp",
    "stay_within": "behaviors/avoid_obstacles.hpp",
    "queue": "behaviors/group.hpp",
    "follow_leader": "behaviors/group.hpp",
    "avoid_collisions": "behaviors/group.hpp",
    "context_steering": "behaviors/context.hpp",
    "angular_limits": "behaviors/orientation.hpp",
    "face": "behaviors/orientation.hpp",
    "look_where_going": "behaviors/orientation.hpp",
    "align_up": "behaviors/orientation.hpp",
    "match_orientation": "behaviors/orientation.hpp",
    "turning_limits": "behaviors/turning.hpp",
    "turning_state": "behaviors/turning.hpp",
    "seek_turning": "behaviors/turning.hpp",
    "formation_shape": "behaviors/formation.hpp",
    "keep_slot": "behaviors/formation.hpp",
    "formation_march": "behaviors/formation_driver.hpp",
    "crowd_config": "crowd/agents.hpp",
    "crowd_agents": "crowd/agents.hpp",
    "nav_area": "crowd/nav_grid.hpp",
    "nav_congestion": "crowd/nav_field.hpp",
    "params": "models/starling_params.hpp",
    "copy_rule": "models/starling_terms.hpp",
    "banking_flight": "flight.hpp",
}

DECL = re.compile(r"^\s+(?!return\b|using\b|static\b|friend\b|template\b|typename\b|public\b|private\b)"
                  r"[A-Za-z_][\w:<>, *&]*?[\s*&>]([A-Za-z_]\w*)\s*(=[^;]*|\{[^;]*\})?\s*(,[^;]*)?;")


def fields_of(text: str, name: str):
    m = re.search(r"^(\s*)(?:struct|class) " + re.escape(name) + r"\b[^;]*\{", text, re.M)
    if not m:
        return None
    indent = len(m.group(1))
    body = []
    depth = 0
    for line in text[m.end():].splitlines():
        if depth == 0 and re.match(r"^\s{%d}\};" % indent, line):
            break
        if depth == 0 and line.strip() and not line.strip().startswith("//"):
            body.append(line)
        depth += line.count("{") - line.count("}")
        depth = max(depth, 0)
    out = []
    for line in body:
        code = line.split("//")[0].rstrip()
        head = re.split(r"[={]", code, maxsplit=1)[0]
        if "(" in head or not code.endswith(";"):  # a function, or not a declaration
            continue
        d = DECL.match(code)
        if not d:
            continue
        # Every declarator: the first name, then the names after top-level commas.
        rest = code[d.start(1):].rstrip(";")
        depth, piece, pieces = 0, "", []
        for ch in rest:
            if ch in "({<[":
                depth += 1
            elif ch in ")}>]":
                depth -= 1
            if ch == "," and depth == 0:
                pieces.append(piece)
                piece = ""
            else:
                piece += ch
        pieces.append(piece)
        for pc in pieces:
            n = re.match(r"\s*([A-Za-z_]\w*)", pc)
            if n:
                out.append(n.group(1))
    return out


def sections(ref: str):
    """heading text -> body, for every heading of the reference."""
    parts = re.split(r"^(#{2,4} .*)$", ref, flags=re.M)
    return {parts[i]: parts[i + 1] for i in range(1, len(parts) - 1, 2)}


def main() -> int:
    root = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent)
    ref = (root / "docs" / "reference.md").read_text()
    secs = sections(ref)
    missing = []
    checked = 0
    for name, header in STRUCTS.items():
        text = (root / "include" / "boids" / header).read_text()
        fields = fields_of(text, name)
        if fields is None:
            missing.append(f"{header}: no struct {name}")
            continue
        body = next((b for h, b in secs.items() if f"`{name}`" in h), None)
        if body is None:
            missing.append(f"docs/reference.md: no section for `{name}` ({header})")
            continue
        for f in fields:
            checked += 1
            if f"`{f}`" not in body:
                missing.append(f"docs/reference.md: `{name}` does not list `{f}` ({header})")
    for m in missing:
        print(m)
    print(f"check-reference: {checked} fields of {len(STRUCTS)} structs, {len(missing)} missing")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
