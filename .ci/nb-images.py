#!/usr/bin/env python3
"""Fails unless every executed notebook given holds at least one image output.

A notebook can run without an error and still draw nothing (a headless backend with
plt.show(), a figure never displayed); executing it proves only that the cells ran.
Usage: nb-images.py EXECUTED.ipynb...
"""
import json
import sys

IMAGE_TYPES = ("image/png", "image/svg+xml", "image/jpeg")


def images(path):
    with open(path) as f:
        nb = json.load(f)
    per_cell = []
    for i, cell in enumerate(nb.get("cells", [])):
        if cell.get("cell_type") != "code":
            continue
        n = sum(1 for o in cell.get("outputs", []) if any(t in o.get("data", {}) for t in IMAGE_TYPES))
        if n:
            per_cell.append((i, n))
    return per_cell


def main(paths):
    if not paths:
        print("nb-images: no notebooks given", file=sys.stderr)
        return 2
    status = 0
    for p in paths:
        per_cell = images(p)
        total = sum(n for _, n in per_cell)
        if total == 0:
            print(f"nb-images: FAIL {p}: no image output in any cell", file=sys.stderr)
            status = 1
        else:
            cells = ", ".join(f"cell {i}: {n}" for i, n in per_cell)
            print(f"nb-images: ok   {p}: {total} images ({cells})")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
