#!/usr/bin/env bash
# Prints the transfer size of a release build's wasm, JS and CSS: raw, gzip -9 and brotli -q 11,
# then where the wasm's bytes go by crate (scripts/wasm-breakdown.py), and fails if the brotli
# total is above the budget committed in scripts/size-budget (make test runs this).
#
#   scripts/size.sh [DIST]
set -euo pipefail
cd "$(dirname "$0")/.."
dist="${1:-dist}"
[[ -d "$dist" ]] || { echo "size: no $dist/; run trunk build --release first" >&2; exit 1; }
budget=$(grep -v '^#' scripts/size-budget | tr -d '[:space:]')
printf '%-44s %10s %10s %10s\n' file raw gzip brotli
total=(0 0 0)
while IFS= read -r f; do
  raw=$(stat -c %s "$f")
  gz=$(gzip -9 -c "$f" | wc -c)
  br=$(brotli -q 11 -c "$f" | wc -c)
  total=($((total[0] + raw)) $((total[1] + gz)) $((total[2] + br)))
  printf '%-44s %10d %10d %10d\n' "${f#"$dist"/}" "$raw" "$gz" "$br"
done < <(find "$dist" -type f \( -name '*.wasm' -o -name '*.js' -o -name '*.css' \) | sort)
printf '%-44s %10d %10d %10d\n' total "${total[@]}"

# The breakdown reads function names, which the shipped wasm no longer has: bind the cargo
# output again with names kept, before wasm-opt.
cargo_wasm=target/wasm32-unknown-unknown/release/ratelimit-playground.wasm
if [[ -f "$cargo_wasm" ]] && command -v wasm-bindgen >/dev/null; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  wasm-bindgen --keep-debug --target web --out-dir "$tmp" "$cargo_wasm"
  echo
  python3 scripts/wasm-breakdown.py "$tmp/ratelimit-playground_bg.wasm" 15
  echo
fi

awk -v b="${total[2]}" -v max="$budget" 'BEGIN {
  printf "total brotli: %.1f KB; budget %.1f KB (scripts/size-budget); target 150 KB (issue #15)\n", b / 1000, max / 1000
  if (b > max) {
    printf "size: %d bytes brotli is over the budget of %d by %d: make it smaller, or raise scripts/size-budget and say why in the commit\n", b, max, b - max > "/dev/stderr"
    exit 1
  }
}'
