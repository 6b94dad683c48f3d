#!/usr/bin/env bash
# Prints the transfer size of a release build's wasm, JS and CSS: raw, gzip -9 and brotli -q 11.
set -euo pipefail
dist="${1:-dist}"
[[ -d "$dist" ]] || { echo "size: no $dist/; run trunk build --release first" >&2; exit 1; }
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
awk -v b="${total[2]}" 'BEGIN { printf "total brotli: %.1f KB (budget 100 KB)\n", b / 1000 }'
