#!/bin/sh
# links.sh: every relative Markdown link of the documentation pages
# (README.md, HACKING.md, formats/*.md and every page under tests/)
# points at a file that exists, so a page moved or renamed takes its links
# along.  Links are [text](target) and [label]: target; a target with a
# scheme (https:, mailto:) or only an #anchor is not a file, and code (a
# fenced block or a `span`) holds no links.
. "$top_srcdir/tests/support/lib.sh"

# broken FILE...: prints FILE:LINE: TARGET for each relative link of the
# FILEs whose target, taken from the FILE's own folder, does not exist.
broken() {
  for f in "$@"; do
    awk '
      /^[[:space:]]*(```|~~~)/ { fenced = !fenced; next }
      fenced { next }
      {
        line = $0
        gsub(/`[^`]*`/, "", line)
        # [label]: target, a reference definition
        if (match(line, /^[[:space:]]*\[[^]]+\]:[[:space:]]+[^[:space:]]+/)) {
          t = substr(line, RSTART, RLENGTH); sub(/^[^]]*\]:[[:space:]]+/, "", t)
          print FNR "\t" t
        }
        # [text](target) and ![alt](target)
        while (match(line, /\]\([^)]*\)/)) {
          t = substr(line, RSTART + 2, RLENGTH - 3)
          line = substr(line, RSTART + RLENGTH)
          sub(/^[[:space:]]*</, "", t); sub(/>.*$/, "", t)
          sub(/[[:space:]].*$/, "", t)
          print FNR "\t" t
        }
      }' "$f" | while IFS='	' read -r lineno t; do
      case $t in
        "" | "#"* | [a-zA-Z]*:*) continue ;;
      esac
      path=${t%%#*}
      [ -e "$(dirname "$f")/$path" ] || echo "$f:$lineno: $t"
    done
  done
}

cd "$top_srcdir" || exit 1
pages="README.md HACKING.md $(ls formats/*.md) $(find tests -name '*.md' ! -path '*/_*' | sort)"
ok "the pages are found (README.md, HACKING.md, formats/, tests/bench/results/)" \
  sh -c "test -f README.md && test -f HACKING.md && ls formats/*.md && ls tests/bench/results/*.md"
status broken $pages
is "every relative link of $(echo $pages | wc -w) pages points at a file" "$out" ""

# The check itself: a page with one link of each kind, two of them broken.
mkdir -p "$tmp/page/sub" && : >"$tmp/page/sub/there.md" && : >"$tmp/page/pic.png"
cat >"$tmp/page/page.md" <<'PAGE'
# A page
[there](sub/there.md) and [its part](sub/there.md#part), ![a picture](pic.png "title")
[gone](sub/gone.md), [the web](https://example.org/x.md), [mail](mailto:a@b), [up](#a-page)
`[code](not/a/link.md)`
```
[fenced](not/a/link.md)
```
[label]: sub/missing.md
[other]: sub/there.md
PAGE
status broken "$tmp/page/page.md"
is "a planted broken link and a broken reference are found, and nothing else" \
  "$(echo "$out" | sed "s|^$tmp/||")" "page/page.md:3: sub/gone.md
page/page.md:8: sub/missing.md"
finish
