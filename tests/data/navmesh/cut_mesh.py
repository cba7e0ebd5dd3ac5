"""Cut rectangles out of a Polyanya mesh (format version 2), for small test data.

Usage: python3 cut_mesh.py MESH X0 Y0 X1 Y1 [X0 Y0 X1 Y1 ...] > OUT

Keeps every polygon with all its vertices inside one of the rectangles; edges to dropped
polygons become walls (-1). The vertex neighbour lists keep their order with dropped
polygons as -1 and runs of -1 merged, as the format asks.
"""

from __future__ import annotations

import sys


def cut(text: str, boxes: list[tuple[float, float, float, float]]) -> str:
    tok = text.split()
    assert tok[0] == "mesh" and tok[1] == "2"
    nv, np_ = int(tok[2]), int(tok[3])
    pos = 4
    verts = []
    for _ in range(nv):
        c = int(tok[pos + 2])
        verts.append((tok[pos], tok[pos + 1], [int(t) for t in tok[pos + 3 : pos + 3 + c]]))
        pos += 3 + c
    polys = []
    for _ in range(np_):
        n = int(tok[pos])
        vs = [int(t) for t in tok[pos + 1 : pos + 1 + n]]
        ps = [int(t) for t in tok[pos + 1 + n : pos + 1 + 2 * n]]
        polys.append((vs, ps))
        pos += 1 + 2 * n

    def inside(v: int, box: tuple[float, float, float, float]) -> bool:
        x, y = float(verts[v][0]), float(verts[v][1])
        return box[0] <= x <= box[2] and box[1] <= y <= box[3]

    kept = [
        p
        for p, (vs, _) in enumerate(polys)
        if any(all(inside(v, box) for v in vs) for box in boxes)
    ]
    pmap = {p: i for i, p in enumerate(kept)}
    used = sorted({v for p in kept for v in polys[p][0]})
    vmap = {v: i for i, v in enumerate(used)}
    lines = ["mesh", "2", f"{len(used)} {len(kept)}"]
    for v in used:
        x, y, around = verts[v]
        ring = [pmap.get(p, -1) for p in around]
        merged = [q for i, q in enumerate(ring) if not (q < 0 and ring[i - 1] < 0)]
        if not merged:
            merged = [-1]
        lines.append(" ".join([x, y, str(len(merged))] + [str(q) for q in merged]))
    for p in kept:
        vs, ps = polys[p]
        fields = [str(len(vs))] + [str(vmap[v]) for v in vs] + [str(pmap.get(q, -1)) for q in ps]
        lines.append(" ".join(fields))
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    path, *numbers = sys.argv[1:]
    values = [float(b) for b in numbers]
    rects = [(values[i], values[i + 1], values[i + 2], values[i + 3]) for i in range(0, len(values), 4)]
    with open(path, encoding="utf-8") as f:
        sys.stdout.write(cut(f.read(), rects))
