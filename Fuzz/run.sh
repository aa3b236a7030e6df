#!/bin/sh
# Builds the libFuzzer targets (the reading layers with coverage and AddressSanitizer, plus one
# entry file per reader) under .build/fuzz and runs each for FUZZ_SECONDS.
#
#   Fuzz/run.sh                 build and run every target
#   Fuzz/run.sh json yaml       only these
#   FUZZ_SECONDS=600 Fuzz/run.sh binary
#
# Corpora live in .build/fuzz/corpus/<target>, seeded from Samples/ and, when it is
# there, ../shared/corpus (read in place). A crash stops the run and leaves its input
# in .build/fuzz/crashes/<target>/; copy it to Tests/Fixtures/fuzz/<target>/ so that
# FuzzRegressionTests keeps it.
set -eu
cd "$(dirname "$0")/.."
ROOT=$(pwd)
SWIFTC=${SWIFTC:-swiftc}
FUZZ_SECONDS=${FUZZ_SECONDS:-60}
OUT=.build/fuzz
TARGETS="json yaml binary xml openstep sniff"
[ $# -gt 0 ] && TARGETS="$*"
FLAGS="-sanitize=fuzzer,address -parse-as-library -O -enable-testing -swift-version 6 -package-name prefs -I Sources/CYaml"
mkdir -p "$OUT"

# The layers the readers need (model, text, formats), each its own module as SwiftPM
# builds them, rebuilt when a source changed since the last build.
LAYERS="PrefsModel PrefsText PrefsFormats"
LIB="$OUT/libPrefsFormats.a"
if [ ! -f "$LIB" ] || [ -n "$(find Sources/PrefsModel Sources/PrefsText Sources/PrefsFormats Fuzz/run.sh -newer "$LIB" -name '*.swift' -o -newer "$LIB" -name run.sh | head -1)" ]; then
  for layer in $LAYERS; do
    echo "fuzz: building $layer with coverage and AddressSanitizer"
    # shellcheck disable=SC2046
    $SWIFTC $FLAGS -I "$OUT" -module-name "$layer" -emit-library -static -emit-module \
      -emit-module-path "$OUT/$layer.swiftmodule" -o "$OUT/lib$layer.a" $(find "Sources/$layer" -name '*.swift' | sort)
  done
fi

seed() {
  target=$1
  corpus="$OUT/corpus/$target"
  mkdir -p "$corpus"
  [ -n "$(ls -A "$corpus")" ] && return 0
  shared="$ROOT/../shared/corpus"
  case $target in
    json) exts="json" ;;
    yaml) exts="yaml yml" ;;
    binary) exts="bplist binary" ;;
    xml) exts="plist xml" ;;
    openstep) exts="pbxproj strings openstep ascii txt plist" ;;
    *) exts="json yaml yml plist xml bplist" ;;
  esac
  for ext in $exts; do
    for dir in Samples "$shared"; do
      [ -d "$dir" ] || continue
      # Seeds are read in place and copied only into the build folder's corpus.
      find "$dir" -type f -name "*.$ext" -size -64k | head -400 | while read -r f; do
        cp "$f" "$corpus/$(echo "$f" | cksum | cut -d' ' -f1).$ext"
      done
    done
  done
  # The binary reader also starts from binary plists written from the samples.
  if [ "$target" = binary ] || [ "$target" = sniff ]; then
    for f in Samples/*.plist; do
      plutil_out="$corpus/$(basename "$f").bplist"
      [ -x .build/release/prefs ] && .build/release/prefs convert "$f" --to binary -o "$plutil_out" 2>/dev/null || true
    done
  fi
  [ -n "$(ls -A "$corpus")" ] || printf '{}' >"$corpus/empty-dict"
}

status=0
for target in $TARGETS; do
  bin="$OUT/$target"
  if [ ! -x "$bin" ] || [ "$LIB" -nt "$bin" ] || [ "Fuzz/Targets/$target.swift" -nt "$bin" ] \
    || [ Fuzz/Support/RoundTrip.swift -nt "$bin" ]; then
    echo "fuzz: building $target"
    $SWIFTC $FLAGS -I "$OUT" -module-name "fuzz_$target" Fuzz/Support/RoundTrip.swift "Fuzz/Targets/$target.swift" \
      -L "$OUT" -lPrefsFormats -lPrefsText -lPrefsModel -lyaml -o "$bin"
  fi
  seed "$target"
  # Binary and OpenStep structure is found in small inputs; big ones only slow them down.
  case $target in binary | openstep) max_len=${FUZZ_MAX_LEN:-8192} ;; *) max_len=${FUZZ_MAX_LEN:-65536} ;; esac
  mkdir -p "$OUT/crashes/$target"
  echo "fuzz: running $target for $FUZZ_SECONDS s"
  if ! ASAN_OPTIONS=detect_leaks=0 SWIFT_BACKTRACE=enable=no "$bin" "$OUT/corpus/$target" -max_total_time="$FUZZ_SECONDS" \
    -max_len="$max_len" -timeout=20 -rss_limit_mb=4096 -print_final_stats=1 \
    -artifact_prefix="$OUT/crashes/$target/" 2>"$OUT/$target.log"; then
    echo "fuzz: $target FAILED; input kept in $OUT/crashes/$target/ (log: $OUT/$target.log)"
    status=1
  fi
  grep -E '^stat::number_of_executed_units|^stat::average_exec_per_sec' "$OUT/$target.log" | sed "s/^/fuzz: $target /"
done
exit $status
