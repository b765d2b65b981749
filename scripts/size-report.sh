#!/usr/bin/env bash
# Prints raw and gzip bytes of what dist/ serves, and checks the page's code
# (wasm + js, gzip) against the committed baselines (scripts/size-baseline.txt)
# as issue 22 asks, in three parts:
# - the code the first result waits for (every .wasm and .js but the two
#   below): it fails when it grows more than 8 KB over its baseline without
#   the baseline moving in the same change, or passes the hard ceiling of
#   450 KB (issue 7's fixed 350 KB cap is gone);
# - the page's second module (`later-*`, issue 38: the parts drawn after the
#   first result, src/ui/later.rs): the same 8 KB growth rule over its own
#   baseline, and its own ceiling of 160 KB;
# - the code loaded on demand (the model-import worker, `import_worker*`,
#   started when a model is imported; issue 27): the same 8 KB growth rule
#   over its own baseline, and its own ceiling of 128 KB.
#   scripts/size-report.sh [dist]
set -euo pipefail
DIST=${1:-dist}
BASELINE_FILE=${SIZE_BASELINE_FILE:-$(dirname "$0")/size-baseline.txt}
GROWTH_LIMIT_BYTES=8192
CEILING_BYTES=450000
ON_DEMAND_CEILING_BYTES=128000
LATER_CEILING_BYTES=160000
# Files the page loads only when the user asks for what they do.
ON_DEMAND='import_worker*'
# The page's second module, fetched once the first result is on screen.
LATER='later-*'

gz() { gzip -9 -c "$1" | wc -c; }
printf '%-44s %10s %10s\n' file raw gzip
total_code=0
on_demand_code=0
later_code=0
while IFS= read -r file; do
  raw=$(wc -c <"$file"); zipped=$(gz "$file")
  name=${file#"$DIST"/}
  printf '%-44s %10d %10d\n' "$name" "$raw" "$zipped"
  case "$file" in
    *.wasm|*.js)
      # shellcheck disable=SC2053 # a glob, on purpose
      if [[ $name == $ON_DEMAND ]]; then on_demand_code=$((on_demand_code + zipped))
      elif [[ $name == $LATER ]]; then later_code=$((later_code + zipped))
      else total_code=$((total_code + zipped)); fi
      ;;
  esac
done < <(find "$DIST" -type f \( -name '*.wasm' -o -name '*.js' -o -name '*.css' -o -name '*.json' -o -name '*.html' \) | sort)

baseline=$(sed -n 's/^wasm_js_gzip_bytes=\([0-9][0-9]*\)$/\1/p' "$BASELINE_FILE")
[[ -n "$baseline" ]] || { echo "no wasm_js_gzip_bytes=<bytes> line in $BASELINE_FILE" >&2; exit 1; }
on_demand_baseline=$(sed -n 's/^on_demand_gzip_bytes=\([0-9][0-9]*\)$/\1/p' "$BASELINE_FILE")
[[ -n "$on_demand_baseline" ]] || { echo "no on_demand_gzip_bytes=<bytes> line in $BASELINE_FILE" >&2; exit 1; }
later_baseline=$(sed -n 's/^later_gzip_bytes=\([0-9][0-9]*\)$/\1/p' "$BASELINE_FILE")
[[ -n "$later_baseline" ]] || { echo "no later_gzip_bytes=<bytes> line in $BASELINE_FILE" >&2; exit 1; }
growth=$((total_code - baseline))
percent=$(awk -v g="$growth" -v b="$baseline" 'BEGIN { printf "%+.2f", 100 * g / b }')
printf '%-44s %10s %10d\n' "wasm + js before the first result" "" "$total_code"
printf '%-44s %10s %10d  (%s)\n' "  baseline" "" "$baseline" "$BASELINE_FILE: $(sed -n 's/^measured=//p' "$BASELINE_FILE")"
printf '%-44s %10s %+10d  (%s%%; fails above %+d)\n' "  growth over the baseline" "" "$growth" "$percent" "$GROWTH_LIMIT_BYTES"
room=$((CEILING_BYTES - total_code))
printf '%-44s %10s %10d  (%s)\n' "  hard ceiling" "" "$CEILING_BYTES" \
  "$( ((room >= 0)) && echo "$room bytes below it" || echo "$((-room)) bytes above it")"
# A page that opens in Spanish also waits for its words, fetched beside the
# module (src/text/spanish.rs); an English page never downloads them.
if [[ -f "$DIST/data/es.json" ]]; then
  spanish=$(gz "$DIST/data/es.json")
  printf '%-44s %10s %10d  (%d with them)\n' "  a Spanish page adds data/es.json" "" "$spanish" "$((total_code + spanish))"
fi
# The page itself: with the default page's first result drawn at build time
# (scripts/prerender.mjs), what a plain visit shows before any of the code
# above has run (information, never a failure).
if [[ -f "$DIST/index.html" ]]; then
  printf '%-44s %10d %10d  (%s)\n' "the page (index.html)" "$(wc -c < "$DIST/index.html")" "$(gz "$DIST/index.html")" \
    "$(grep -q 'class="prerender"' "$DIST/index.html" && echo "with the first result drawn at build time" || echo "no first result drawn at build time")"
fi
# Its Spanish copy, which a page that opens in Spanish fetches instead.
for copy in "$DIST"/first-es-*.html; do
  [[ -f "$copy" ]] && printf '%-44s %10d %10d\n' "  in Spanish ($(basename "$copy"))" "$(wc -c < "$copy")" "$(gz "$copy")"
done
later_room=$((LATER_CEILING_BYTES - later_code))
printf '%-44s %10s %10d\n' "wasm + js after the first result ($LATER)" "" "$later_code"
printf '%-44s %10s %10d  (%+d; fails above %+d)\n' "  baseline" "" "$later_baseline" "$((later_code - later_baseline))" "$GROWTH_LIMIT_BYTES"
printf '%-44s %10s %10d  (%s)\n' "  ceiling" "" "$LATER_CEILING_BYTES" \
  "$( ((later_room >= 0)) && echo "$later_room bytes below it" || echo "$((-later_room)) bytes above it")"
on_demand_growth=$((on_demand_code - on_demand_baseline))
on_demand_room=$((ON_DEMAND_CEILING_BYTES - on_demand_code))
printf '%-44s %10s %10d\n' "wasm + js on demand ($ON_DEMAND)" "" "$on_demand_code"
printf '%-44s %10s %10d  (%+d; fails above %+d)\n' "  baseline" "" "$on_demand_baseline" "$on_demand_growth" "$GROWTH_LIMIT_BYTES"
printf '%-44s %10s %10d  (%s)\n' "  ceiling" "" "$ON_DEMAND_CEILING_BYTES" \
  "$( ((on_demand_room >= 0)) && echo "$on_demand_room bytes below it" || echo "$((-on_demand_room)) bytes above it")"

# The breakdown (information, never a failure): twiggy on the modules before
# wasm-opt, which the split (scripts/split-module.mjs) and Trunk leave in
# target/ (dist/'s modules have no names).
target=${CARGO_TARGET_DIR:-$(dirname "$0")/../target}
before_opt=$(find "$target/wasm-split/release/bound" -maxdepth 1 -name 'whichgpu-*_bg.wasm' 2>/dev/null | head -n 1)
shipped=$(find "$DIST" -maxdepth 1 -name 'whichgpu-*_bg.wasm' | head -n 1)
if ! command -v twiggy >/dev/null 2>&1; then
  echo "(no breakdown: twiggy is not installed; scripts/setup.sh --test installs it)"
elif [[ ! -f "$before_opt" || -z "$shipped" ]]; then
  echo "(no breakdown: no module before wasm-opt in $target/wasm-split/release/bound, or no module in $DIST; run trunk build --release)"
else
  node "$(dirname "$0")/size-breakdown.mjs" "$before_opt" "$shipped" 25 || echo "(the breakdown failed; it is information only)"
  later_before=$target/wasm-split/release/split_later.wasm
  later_shipped=$(find "$DIST" -maxdepth 1 -name 'later-*.wasm' | head -n 1)
  if [[ -f "$later_before" && -n "$later_shipped" ]]; then
    echo; echo "the second module (after the first result):"
    node "$(dirname "$0")/size-breakdown.mjs" "$later_before" "$later_shipped" 10 || echo "(the breakdown failed; it is information only)"
  fi
  worker_before=$target/wasm-bindgen/release/import_worker_bg.wasm
  if [[ -f "$worker_before" && -f "$DIST/import_worker_bg.wasm" ]]; then
    echo; echo "the model-import worker (on demand):"
    node "$(dirname "$0")/size-breakdown.mjs" "$worker_before" "$DIST/import_worker_bg.wasm" 10 || echo "(the breakdown failed; it is information only)"
  fi
fi

# One part's verdict: past its ceiling, or grown more than the limit over
# its baseline without the baseline moving, fails; below its baseline, a
# reminder to lower it.
#   judge WHAT BYTES BASELINE CEILING KEY
judge() {
  local what=$1 bytes=$2 baseline=$3 ceiling=$4 key=$5
  local growth=$((bytes - baseline))
  if (( bytes > ceiling )); then
    echo "size ceiling exceeded: $what is $bytes bytes gzip, above its ceiling of $ceiling (issue 22), whatever the baseline says" >&2
    return 1
  fi
  if (( growth > GROWTH_LIMIT_BYTES )); then
    echo "size budget exceeded: $what grew $growth bytes gzip over its baseline of $baseline, more than $GROWTH_LIMIT_BYTES." >&2
    echo "If the growth is worth it, set $key=$bytes in $BASELINE_FILE in the same change and say why in its commit message." >&2
    return 1
  fi
  if (( growth < 0 )); then
    echo "$what is $((-growth)) bytes gzip below its baseline: lower $key to $bytes in $BASELINE_FILE (and its measured= line), so that the budget follows the smaller code."
  fi
}
judge "wasm + js before the first result" "$total_code" "$baseline" "$CEILING_BYTES" wasm_js_gzip_bytes
judge "wasm + js after the first result ($LATER)" "$later_code" "$later_baseline" "$LATER_CEILING_BYTES" later_gzip_bytes
judge "wasm + js on demand ($ON_DEMAND)" "$on_demand_code" "$on_demand_baseline" "$ON_DEMAND_CEILING_BYTES" on_demand_gzip_bytes
