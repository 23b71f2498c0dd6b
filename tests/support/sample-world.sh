# sample-world.sh: a small world for the tests of world plans (source it;
# needs $top_srcdir).  sample_map [X Y] prints data/sample.map (64 x 40)
# mirrored into a 256 x 256 map, from half a map in (so that its rooms
# cross the tiles' borders), its cell (X, Y) flipped between a wall and
# ground when given; sample_world FOLDER [X Y] cuts that map into 4 x 4
# tiles of 64 in FOLDER, with data/legend.yaml and sample-agents.yaml;
# world_outputs FOLDER prints the name and digest of every file a world's
# bake wrote into FOLDER, sorted.  chunk_world FOLDER [X Y] cuts a 320 x 320
# map of a repeated chunk into 5 x 5 tiles of 64 (chunk_map, below).
sample_map() {
  awk -v ex="${1--1}" -v ey="${2--1}" 'NR > 4 { row[n++] = $0 }
    END {
      print "type octile"; print "height 256"; print "width 256"; print "map"
      for (y = 0; y < 256; y++) {
        r = (y + 20) % (2 * n); if (r >= n) r = 2 * n - 1 - r
        line = ""; w = length(row[r])
        for (x = 0; x < 256; x++) {
          c = (x + 32) % (2 * w); if (c >= w) c = 2 * w - 1 - c
          ch = substr(row[r], c + 1, 1)
          if (x == ex && y == ey) ch = (ch == "@" ? "." : "@")
          line = line ch
        }
        print line
      }
    }' "$top_srcdir/data/sample.map"
}
sample_world() {
  sample_map ${2+"$2"} ${3+"$3"} >"$1.map" &&
    navbake world cut "$1.map" --tile 64 -l "$top_srcdir/data/legend.yaml" \
      -a "$top_srcdir/data/sample-agents.yaml" -o "$1"
}
world_outputs() {
  (cd "$1" && find . -name '*.nbb' -o -name '*.border' -o -name '*.nbw' | sort | xargs cksum)
}
# chunk_map [X Y]: a 320 x 320 map made of a 32 x 32 chunk of data/sample.map
# mirrored (period 64: every tile of 64 the same cells), its cell (X, Y)
# flipped between a wall and ground when given.
chunk_map() {
  awk -v ex="${1--1}" -v ey="${2--1}" 'NR > 4 { row[n++] = $0 }
    END {
      print "type octile"; print "height 320"; print "width 320"; print "map"
      for (y = 0; y < 320; y++) {
        r = y % 64; if (r >= 32) r = 63 - r
        line = ""
        for (x = 0; x < 320; x++) {
          c = x % 64; if (c >= 32) c = 63 - c
          ch = substr(row[r + 1], c + 2, 1)
          if (x == ex && y == ey) ch = (ch == "@" ? "." : "@")
          line = line ch
        }
        print line
      }
    }' "$top_srcdir/data/sample.map"
}
chunk_world() {
  chunk_map ${2+"$2"} ${3+"$3"} >"$1.map" &&
    navbake world cut "$1.map" --tile 64 -l "$top_srcdir/data/legend.yaml" \
      -a "$top_srcdir/data/sample-agents.yaml" -o "$1"
}
