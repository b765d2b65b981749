#!/usr/bin/env bash
# Prints raw and gzip bytes of what dist/ serves, and checks the page's code
# (wasm + js, gzip) against the committed baseline (scripts/size-baseline.txt)
# as issue 22 asks: it fails when the code grows more than 8 KB over the
# baseline without the baseline moving in the same change, or when it passes
# the hard ceiling of 450 KB. (Issue 7's fixed 350 KB cap is gone.)
#   scripts/size-report.sh [dist]
set -euo pipefail
DIST=${1:-dist}
BASELINE_FILE=${SIZE_BASELINE_FILE:-$(dirname "$0")/size-baseline.txt}
GROWTH_LIMIT_BYTES=8192
CEILING_BYTES=450000

gz() { gzip -9 -c "$1" | wc -c; }
printf '%-44s %10s %10s\n' file raw gzip
total_code=0
while IFS= read -r file; do
  raw=$(wc -c <"$file"); zipped=$(gz "$file")
  printf '%-44s %10d %10d\n' "${file#"$DIST"/}" "$raw" "$zipped"
  case "$file" in *.wasm|*.js) total_code=$((total_code + zipped)) ;; esac
done < <(find "$DIST" -type f \( -name '*.wasm' -o -name '*.js' -o -name '*.css' -o -name '*.json' -o -name '*.html' \) | sort)

baseline=$(sed -n 's/^wasm_js_gzip_bytes=\([0-9][0-9]*\)$/\1/p' "$BASELINE_FILE")
[[ -n "$baseline" ]] || { echo "no wasm_js_gzip_bytes=<bytes> line in $BASELINE_FILE" >&2; exit 1; }
growth=$((total_code - baseline))
percent=$(awk -v g="$growth" -v b="$baseline" 'BEGIN { printf "%+.2f", 100 * g / b }')
printf '%-44s %10s %10d\n' "wasm + js" "" "$total_code"
printf '%-44s %10s %10d  (%s)\n' "  baseline" "" "$baseline" "$BASELINE_FILE: $(sed -n 's/^measured=//p' "$BASELINE_FILE")"
printf '%-44s %10s %+10d  (%s%%; fails above %+d)\n' "  growth over the baseline" "" "$growth" "$percent" "$GROWTH_LIMIT_BYTES"
room=$((CEILING_BYTES - total_code))
printf '%-44s %10s %10d  (%s)\n' "  hard ceiling" "" "$CEILING_BYTES" \
  "$( ((room >= 0)) && echo "$room bytes below it" || echo "$((-room)) bytes above it")"

# The breakdown (information, never a failure): twiggy on the module before
# wasm-opt, which Trunk leaves in target/ (dist/'s module has no names).
before_opt=${CARGO_TARGET_DIR:-$(dirname "$0")/../target}/wasm-bindgen/release/whichgpu_bg.wasm
shipped=$(find "$DIST" -maxdepth 1 -name '*_bg.wasm' | head -n 1)
if ! command -v twiggy >/dev/null 2>&1; then
  echo "(no breakdown: twiggy is not installed; scripts/setup.sh --test installs it)"
elif [[ ! -f "$before_opt" || -z "$shipped" ]]; then
  echo "(no breakdown: no $before_opt, or no module in $DIST; run trunk build --release)"
else
  node "$(dirname "$0")/size-breakdown.mjs" "$before_opt" "$shipped" 25 || echo "(the breakdown failed; it is information only)"
fi

if (( total_code > CEILING_BYTES )); then
  echo "size ceiling exceeded: wasm + js is $total_code bytes gzip, above the hard ceiling of $CEILING_BYTES (issue 22), whatever the baseline says" >&2
  exit 1
fi
if (( growth > GROWTH_LIMIT_BYTES )); then
  echo "size budget exceeded: wasm + js grew $growth bytes gzip ($percent%) over the baseline of $baseline, more than $GROWTH_LIMIT_BYTES." >&2
  echo "If the growth is worth it, set wasm_js_gzip_bytes=$total_code in $BASELINE_FILE in the same change and say why in its commit message." >&2
  exit 1
fi
if (( growth < 0 )); then
  echo "wasm + js is $((-growth)) bytes gzip below the baseline: lower wasm_js_gzip_bytes to $total_code in $BASELINE_FILE (and its measured= line), so that the budget follows the smaller page."
fi
