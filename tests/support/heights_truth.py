#!/usr/bin/env python3
# heights_truth.py PGM WATER_HI ROCK_LO MAX_STEP: the MovingAI map of a
# heightmap (formats/image.md) by brute force: heights up to WATER_HI
# water 'W', from ROCK_LO rock '@', a cell more than MAX_STEP above any of
# its eight neighbours '@', the rest ground '.'; then checks that no move
# between two cells that stand climbs more than MAX_STEP, and that every
# cliff cell has a neighbour more than MAX_STEP below (tests/cli/levels.sh).
import sys

data = open(sys.argv[1], "rb").read()
tokens, i = [], 2
while len(tokens) < 3:
    while data[i:i + 1].isspace():
        i += 1
    if data[i:i + 1] == b"#":
        while data[i:i + 1] != b"\n":
            i += 1
        continue
    j = i
    while data[j:j + 1].isdigit():
        j += 1
    tokens.append(int(data[i:j]))
    i = j
w, h, maxval = tokens
px = data[i + 1:]
z = [[px[y * w + x] for x in range(w)] for y in range(h)]
water, rock, step = (int(a) for a in sys.argv[2:5])
near = lambda x, y: [(x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)
                     if (dx or dy) and 0 <= x + dx < w and 0 <= y + dy < h]
rows = []
for y in range(h):
    r = ""
    for x in range(w):
        c = "W" if z[y][x] <= water else "@" if z[y][x] >= rock else "."
        if any(z[y][x] - z[ny][nx] > step for nx, ny in near(x, y)):
            c = "@"
        r += c
    rows.append(r)
for y in range(h):
    for x in range(w):
        if rows[y][x] != "@":
            for nx, ny in near(x, y):
                assert rows[ny][nx] == "@" or abs(z[y][x] - z[ny][nx]) <= step, (x, y, nx, ny)
print("type octile\nheight %d\nwidth %d\nmap" % (h, w))
print("\n".join(rows))
