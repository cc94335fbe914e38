#!/usr/bin/env bash
# The behaviour pictures in docs/images, drawn again by boids-behavior-gallery: byte for
# byte the same, so docs show what the code does today.
# Usage: gallery_pictures.sh BOIDS_BEHAVIOR_GALLERY ROOT WORK_DIR
set -euo pipefail
gallery=$1 root=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
"$gallery" "$work" >/dev/null
count=0 status=0
for drawn in "$work"/*.svg; do
    name=$(basename "$drawn")
    if cmp -s "$drawn" "$root/docs/images/$name"; then
        count=$((count + 1))
    else
        echo "$name: differs from docs/images/$name (redraw: boids-behavior-gallery docs/images)"
        status=1
    fi
done
if [ "$count" -eq 0 ] && [ "$status" -eq 0 ]; then
    echo "no pictures drawn"
    exit 1
fi
echo "$count pictures the same as docs/images"
exit "$status"
