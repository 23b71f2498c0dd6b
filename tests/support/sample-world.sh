# sample-world.sh: a small world for the tests of world plans (source it;
# needs $top_srcdir).  sample_map [X Y] prints data/sample.map (64 x 40)
# mirrored into a 256 x 256 map, from half a map in (so that its rooms
# cross the tiles' borders), its cell (X, Y) flipped between a wall and
# ground when given; sample_world FOLDER [X Y] cuts that map into 4 x 4
# tiles of 64 in FOLDER, with data/legend.yaml and sample-agents.yaml;
# world_outputs FOLDER prints the name and digest of every file a world's
# bake wrote into FOLDER, sorted.  chunk_world FOLDER [X Y] cuts a 320 x 320
# map of a repeated chunk into 5 x 5 tiles of 64 (chunk_map, below).
# mirror_map SIZE OX OY SX SY W H [X Y]: a SIZE x SIZE map of the W x H cells
# of data/sample.map from (SX, SY), mirrored at their edges (period 2W and
# 2H), shifted by (OX, OY), cell (X, Y) flipped between a wall and ground.
mirror_map() {
  awk -v size="$1" -v ox="$2" -v oy="$3" -v sx="$4" -v sy="$5" -v w="$6" -v h="$7" \
      -v ex="${8--1}" -v ey="${9--1}" 'NR > 4 { row[n++] = $0 }
    END {
      print "type octile"; print "height " size; print "width " size; print "map"
      for (y = 0; y < size; y++) {
        r = (y + oy) % (2 * h); if (r >= h) r = 2 * h - 1 - r
        line = ""
        for (x = 0; x < size; x++) {
          c = (x + ox) % (2 * w); if (c >= w) c = 2 * w - 1 - c
          ch = substr(row[sy + r], sx + c + 1, 1)
          if (x == ex && y == ey) ch = (ch == "@" ? "." : "@")
          line = line ch
        }
        print line
      }
    }' "$top_srcdir/data/sample.map"
}
sample_map() { mirror_map 256 32 20 0 0 64 40 ${1+"$1"} ${2+"$2"}; }
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
chunk_map() { mirror_map 320 0 0 1 1 32 32 ${1+"$1"} ${2+"$2"}; }
chunk_world() {
  chunk_map ${2+"$2"} ${3+"$3"} >"$1.map" &&
    navbake world cut "$1.map" --tile 64 -l "$top_srcdir/data/legend.yaml" \
      -a "$top_srcdir/data/sample-agents.yaml" -o "$1"
}
