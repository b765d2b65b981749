#!/usr/bin/env bash
# Prints raw and gzip bytes of what dist/ serves, and fails when the page's
# code (wasm + js, gzip) exceeds the budget the calculator page has in
# issue 7: 350 KB (issue 2's skeleton had 250 KB).
set -euo pipefail
DIST=${1:-dist}
BUDGET_BYTES=${WASM_JS_GZIP_BUDGET_BYTES:-350000}

gz() { gzip -9 -c "$1" | wc -c; }
printf '%-44s %10s %10s\n' file raw gzip
total_code=0
while IFS= read -r file; do
  raw=$(wc -c <"$file"); zipped=$(gz "$file")
  printf '%-44s %10d %10d\n' "${file#"$DIST"/}" "$raw" "$zipped"
  case "$file" in *.wasm|*.js) total_code=$((total_code + zipped)) ;; esac
done < <(find "$DIST" -type f \( -name '*.wasm' -o -name '*.js' -o -name '*.css' -o -name '*.json' -o -name '*.html' \) | sort)
printf '%-44s %10s %10d  (budget %d)\n' "wasm + js" "" "$total_code" "$BUDGET_BYTES"
if (( total_code > BUDGET_BYTES )); then
  echo "size budget exceeded: wasm + js is $total_code bytes gzip, budget $BUDGET_BYTES" >&2
  exit 1
fi
