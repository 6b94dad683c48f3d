#!/usr/bin/env bash
# Prints the transfer size of a release build's wasm, JS and CSS: raw, gzip -9 and brotli -q 11,
# then where the page wasm's bytes go by crate (scripts/wasm-breakdown.py), writes both for every
# module into docs/size.md between its size markers (scripts/size_doc.py; SIZE_DOC names another
# file, SIZE_DOC= writes none), and fails if the page's brotli total is above scripts/size-budget,
# or another module's above its own scripts/size-budget-* (make test runs this).
#
#   scripts/size.sh [DIST]
set -euo pipefail
cd "$(dirname "$0")/.."
dist="${1:-dist}"
[[ -d "$dist" ]] || { echo "size: no $dist/; run trunk build --release first" >&2; exit 1; }
budget=$(grep -v '^#' scripts/size-budget | tr -d '[:space:]' | head -c 20)
worker_budget=$(grep -v '^#' scripts/size-budget-worker | tr -d '[:space:]' | head -c 20)
embed_budget=$(grep -v '^#' scripts/size-budget-embed | tr -d '[:space:]' | head -c 20)
frame_budget=$(grep -v '^#' scripts/size-budget-frame | tr -d '[:space:]' | head -c 20)
full_budget=$(grep -v '^#' scripts/size-budget-full | tr -d '[:space:]' | head -c 20)
# The page is what index.html loads for the playground; a frame (?embed=1) loads the same CSS and
# loader but its own module (ratelimit-frame*) instead of the page's, and its own stylesheet
# (embed-*.css, which index.html keeps in a <template> for frames only). The log worker
# (ratelimit-logs*) is fetched only when a log is analysed, the embed builder
# (ratelimit-embed*, embed-builder.js) only when the Embed panel opens, and the whole page
# (ratelimit-full*: the multi-node view, Compare all, the panels, frames of any card; and the
# whole page's own stylesheets, cluster-*.css and whole-*.css, which the first modules keep in a
# <template>) for a
# multi-node or compare link or when a first module hands over to it, so each is counted and
# budgeted on its own.
printf '%-44s %10s %10s %10s\n' file raw gzip brotli
total=(0 0 0)
worker=(0 0 0)
embed=(0 0 0)
frame=(0 0 0)
full=(0 0 0)
shared=(0 0 0)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Every file's figures for docs/size.md: module, kind, raw, gzip, brotli, path.
: > "$tmp/files.tsv"
while IFS= read -r f; do
  raw=$(stat -c %s "$f")
  gz=$(gzip -9 -c "$f" | wc -c)
  br=$(brotli -q 11 -c "$f" | wc -c)
  # The host script is what a post loads beside its frames, never the page, and noscript.css
  # what a browser with scripting off loads: shown, not summed.
  if [[ "$(basename "$f")" == embed.js ]]; then
    printf '%-44s %10d %10d %10d\n' "${f#"$dist"/} (a host page's, beside its frames)" "$raw" "$gz" "$br"
    continue
  fi
  if [[ "$(basename "$f")" == noscript.css ]]; then
    printf '%-44s %10d %10d %10d\n' "${f#"$dist"/} (with scripting off only)" "$raw" "$gz" "$br"
    continue
  fi
  if [[ "$(basename "$f")" == ratelimit-logs* ]]; then
    worker=($((worker[0] + raw)) $((worker[1] + gz)) $((worker[2] + br)))
    module=worker
  elif [[ "$(basename "$f")" == ratelimit-embed* || "$(basename "$f")" == embed-builder.js ]]; then
    embed=($((embed[0] + raw)) $((embed[1] + gz)) $((embed[2] + br)))
    module=embed
  elif [[ "$(basename "$f")" == ratelimit-frame* || "$(basename "$f")" == embed-*.css || "$(basename "$f")" == frame-fallback.js ]]; then
    frame=($((frame[0] + raw)) $((frame[1] + gz)) $((frame[2] + br)))
    module=frame
  elif [[ "$(basename "$f")" == ratelimit-full* || "$(basename "$f")" == cluster-*.css || "$(basename "$f")" == whole-*.css ]]; then
    full=($((full[0] + raw)) $((full[1] + gz)) $((full[2] + br)))
    module=full
  elif [[ "$(basename "$f")" == ratelimit-playground* ]]; then
    total=($((total[0] + raw)) $((total[1] + gz)) $((total[2] + br)))
    module=page
  else
    shared=($((shared[0] + raw)) $((shared[1] + gz)) $((shared[2] + br)))
    module=shared
  fi
  printf '%s\t%s\t%d\t%d\t%d\t%s\n' "$module" "${f##*.}" "$raw" "$gz" "$br" "${f#"$dist"/}" >> "$tmp/files.tsv"
  printf '%-44s %10d %10d %10d\n' "${f#"$dist"/}" "$raw" "$gz" "$br"
done < <(find "$dist" -type f \( -name '*.wasm' -o -name '*.js' -o -name '*.css' \) | sort)
total=($((total[0] + shared[0])) $((total[1] + shared[1])) $((total[2] + shared[2])))
frame=($((frame[0] + shared[0])) $((frame[1] + shared[1])) $((frame[2] + shared[2])))
full=($((full[0] + shared[0])) $((full[1] + shared[1])) $((full[2] + shared[2])))
printf '%-44s %10d %10d %10d\n' "page (first load)" "${total[@]}"
printf '%-44s %10d %10d %10d\n' "embed frame (first load of ?embed=1)" "${frame[@]}"
printf '%-44s %10d %10d %10d\n' "whole page (a multi-node or compare link)" "${full[@]}"
printf '%-44s %10d %10d %10d\n' "log worker (on first use)" "${worker[@]}"
printf '%-44s %10d %10d %10d\n' "embed builder (on first use)" "${embed[@]}"

# The breakdown reads function names, which the shipped wasm no longer has: bind each module's
# cargo output again with names kept, before wasm-opt. The page's is printed; every module's goes
# to docs/size.md.
release="${CARGO_TARGET_DIR:-target}/wasm32-unknown-unknown/release"
bound=()
if command -v wasm-bindgen >/dev/null; then
  for pair in page:ratelimit-playground frame:ratelimit-frame full:ratelimit-full worker:ratelimit-logs embed:ratelimit-embed; do
    bin=${pair#*:}
    [[ -f "$release/$bin.wasm" ]] || continue
    wasm-bindgen --keep-debug --target web --out-dir "$tmp/$bin" "$release/$bin.wasm"
    bound+=("${pair%%:*}=$tmp/$bin/${bin}_bg.wasm")
  done
fi
if [[ -f "$tmp/ratelimit-playground/ratelimit-playground_bg.wasm" ]]; then
  echo
  python3 scripts/wasm-breakdown.py "$tmp/ratelimit-playground/ratelimit-playground_bg.wasm" 15
  echo
fi

status=0
awk -v b="${total[2]}" -v max="$budget" -v w="${worker[2]}" -v wmax="$worker_budget" -v e="${embed[2]}" -v emax="$embed_budget" -v f="${frame[2]}" -v fmax="$frame_budget" -v u="${full[2]}" -v umax="$full_budget" '
# Prints what `what` transfers against its budget file; on stderr, and failing, when it is over.
function check(what, when, bytes, budget, file) {
  printf "%s brotli: %.1f KB%s; budget %.1f KB (%s)\n", what, bytes / 1000, when, budget / 1000, file
  if (bytes > budget) {
    printf "size: %s is %d bytes brotli, over the budget of %d by %d: make it smaller, or raise %s and say why in the commit\n", what, bytes, budget, bytes - budget, file > "/dev/stderr"
    failed = 1
  }
}
BEGIN {
  failed = 0
  check("page", ", first load: 170 KB at most (issue #49)", b, max, "scripts/size-budget")
  check("log worker", ", fetched when a log is analysed", w, wmax, "scripts/size-budget-worker")
  check("embed frame", ", what each frame in a post loads", f, fmax, "scripts/size-budget-frame")
  check("embed builder", ", fetched when the Embed panel opens", e, emax, "scripts/size-budget-embed")
  check("whole page", ", a multi-node or compare link; fetched when a first module hands over", u, umax, "scripts/size-budget-full")
  exit failed
}' || status=$?

# docs/size.md's measured part, written whether or not a module is over its budget.
doc="${SIZE_DOC-docs/size.md}"
if [[ -n "$doc" ]]; then
  printf '%s\t%s\t%s\n' page "$budget" scripts/size-budget frame "$frame_budget" scripts/size-budget-frame \
    full "$full_budget" scripts/size-budget-full worker "$worker_budget" scripts/size-budget-worker \
    embed "$embed_budget" scripts/size-budget-embed > "$tmp/budgets.tsv"
  python3 scripts/size_doc.py "$tmp/files.tsv" "$tmp/budgets.tsv" "$doc" "${bound[@]}"
  echo "size: wrote the measured sizes into $doc"
fi
exit "$status"
