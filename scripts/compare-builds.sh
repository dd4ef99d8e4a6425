#!/usr/bin/env bash
# Compares two hc11lab binaries on a fixed set of runs and grading batches:
# every output must be byte-identical. Use it to show that a change which
# should not change behaviour (a refactoring, a speed-up) does not.
#
# Usage:
#   scripts/compare-builds.sh OLD_BINARY NEW_BINARY [OUT_DIR]
#
# Build the two binaries first, e.g. the old one from another commit:
#   git worktree add /tmp/hc11lab-old <commit>   # or any checkout of it
#   (cd /tmp/hc11lab-old && cargo build --release --no-default-features)
#   cargo build --release --no-default-features
#   scripts/compare-builds.sh /tmp/hc11lab-old/target/release/hc11lab \
#       target/release/hc11lab
# (The GUI takes no part: builds with or without it compare the same.)
#
# What it runs, each with both binaries, from the repository's top folder:
# - `hc11lab run ... --json` on the bundled Viergewinnt firmware (games,
#   dumps, a PNG of the LCD), under the debugger with --break (labels, hit
#   counts, conditions), --watch, --profile, --explain and --explain-pixel;
#   on the test programs of tests/data/run, the lab programs of
#   tests/data/lab with the bench options, the EVB and board-file programs
#   of tests/data/boards, and the benchmark programs of benches/programs;
# - `hc11lab grade` batches: the corpus tests/grade_corpus against
#   lessons/viergewinnt (whole, and as two shards merged), the AS11
#   assignment of tests/data/dialect, and each exercise's solution from
#   tests/solutions against lessons/eN (every report file compared);
# - `hc11lab lesson check --json` of those solutions.
# For each case the exit code, stdout, stderr and every file it writes are
# kept in OUT_DIR/old and OUT_DIR/new (default: a new folder under /tmp)
# and compared with `diff -r`. Both binaries run in the same scratch
# folder one after the other, so paths in messages are the same.
#
# Exit status: 0 if everything is identical, 1 if anything differs (the
# differences are listed), 2 for a usage error.
set -euo pipefail

if [ $# -lt 2 ] || [ $# -gt 3 ]; then
  sed -n '2,15p' "$0" >&2
  exit 2
fi
abspath() { (cd "$(dirname "$1")" && echo "$(pwd)/$(basename "$1")"); }
OLD=$(abspath "$1")
NEW=$(abspath "$2")
for b in "$OLD" "$NEW"; do
  [ -x "$b" ] || { echo "compare-builds: $b is not an executable file" >&2; exit 2; }
done
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${3:-$(mktemp -d /tmp/hc11lab-compare.XXXXXX)}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
rm -rf "$OUT/old" "$OUT/new" "$OUT/scratch"
mkdir -p "$OUT/old" "$OUT/new"
SCRATCH="$OUT/scratch"
cd "$ROOT"

# The keys of a whole game (13 drops and moves) and of a short one.
GAME=drop,right,drop,left,drop,right,drop,left,drop,right,drop,left,drop
SHORT=drop,left,drop,right,drop

# One case: NAME, then the arguments for hc11lab. Files a case writes go
# to $SCRATCH (its path is the same for both binaries).
cases=()
case_() { cases+=("$(printf '%q ' "$@")"); }

# The bundled firmware.
case_ fw-plain run --json
case_ fw-short run --keys "$SHORT" --json --dump player,board:42,playerWonFlag
case_ fw-game run --keys "$GAME" --json --lcd-text
case_ fw-path run firmware/Viergewinnt.asm --keys "$SHORT" --json
case_ fw-png run --keys "$SHORT" --lcd-png "$SCRATCH/lcd.png" --json
case_ fw-budget run --keys "$GAME" --max-cycles 3000000 --json
case_ fw-break-label run --keys "$GAME" --break drawCell:100 --json
case_ fw-break-nohit run --keys "$GAME" --break drawCell:1000 --json
case_ fw-break-cond run --keys "$GAME" --break 'readInputEnd if a == 99' --json
case_ fw-break-count run --keys "$GAME" --break readInputEnd:300 --json
case_ fw-break-loop run --keys "$GAME" --break mainLoop:5000 --json
case_ fw-break-profile run --keys "$GAME" --break checkWin:3 --profile --json
case_ fw-break-addr run --break '$C001' --max-cycles 1000 --json
case_ fw-profile run --keys "$GAME" --profile --json
case_ fw-watch-change run --keys "$SHORT" --watch 'change board:64' --json
case_ fw-watch-read run --keys "$SHORT" --watch 'read coordy' --json
case_ fw-watch-device run --keys drop --watch 'write $0028' --max-cycles 2000000 --json
case_ fw-explain-pixel run --keys "$SHORT" --explain-pixel 60,30 --json
case_ fw-explain-byte run --keys "$SHORT" --explain board+136 --json
case_ fw-break-explain run --keys "$GAME" --break checkWin:2 --explain-pixel 20,40 --json

# Test programs: stop rules, faults, serial input, the EVB.
for f in tests/data/run/*.asm; do
  name=$(basename "$f" .asm)
  case_ "run-$name" run "$f" --max-cycles 2000000 --json
  case_ "run-$name-evb" run "$f" --board evb --max-cycles 2000000 --json
done
case_ run-echo-serial run tests/data/run/echo.asm --serial-in 'hi\x2C there\n' --json
case_ run-echo-break run tests/data/run/echo.asm --serial-in a --break '$FFFF' --json
case_ run-illegal-trap run tests/data/run/illegal.asm --trap-illegal --max-cycles 100000 --json
case_ run-compute-profile run tests/data/run/compute.asm --profile --json

# The lab bench.
case_ lab-adc run tests/data/lab/adc.asm --analog AN1=1.0 --analog AN5=2 --dump single:4,multi:4 --json
case_ lab-adc-scan run tests/data/lab/adc_scan.asm --analog AN2=3.3 --max-cycles 200000 --json
case_ lab-oc run tests/data/lab/oc.asm --trace-pin PA6 --json
case_ lab-ic run tests/data/lab/ic.asm --signal PA2=square:1000 --dump period:2 --json
case_ lab-ic-falling run tests/data/lab/ic_falling.asm --signal PA2=square:1000 --json
case_ lab-pa run tests/data/lab/pa.asm --signal PA7=square:500 --max-cycles 2000000 --json
case_ lab-cop run tests/data/lab/cop.asm --config '$08' --max-cycles 500000 --json
case_ lab-clockmon run tests/data/lab/clockmon.asm --json
case_ lab-irq run tests/data/lab/irq.asm --irq low@5000 --max-cycles 200000 --json
case_ lab-irqat run tests/data/lab/irqat.asm --irq low@5000 --max-cycles 200000 --json

# Boards.
case_ board-evb-hello run tests/data/boards/evb_hello.asm --board evb --json
case_ board-parts run tests/data/boards/parts_lab.asm --board tests/data/boards/parts-lab.toml --pin PA0=1 --json
case_ board-evb-like run tests/data/boards/toggle_pa4.asm --board tests/data/boards/evb-like.toml --max-cycles 200000 --json

# The benchmark programs (fast-forward and counted loops).
case_ bench-plain run benches/programs/cpu_plain.asm --max-cycles 20000000 --json
case_ bench-mixed run benches/programs/cpu_mixed.asm --max-cycles 20000000 --json
case_ bench-plain-break run benches/programs/cpu_plain.asm --max-cycles 2000000 --break outer:3 --profile --json

# Grading batches; the reports go to $SCRATCH/report.
case_ grade-corpus grade --assignment lessons/viergewinnt --jobs 2 --out "$SCRATCH/report" tests/grade_corpus
case_ grade-shard-1 grade --assignment lessons/viergewinnt --jobs 2 --shard 1/2 --out "$SCRATCH/shard1" tests/grade_corpus
case_ grade-shard-2 grade --assignment lessons/viergewinnt --jobs 2 --shard 2/2 --out "$SCRATCH/shard2" tests/grade_corpus
case_ grade-merge grade merge "$SCRATCH/shard1" "$SCRATCH/shard2" --out "$SCRATCH/merged"
case_ grade-dialect grade --assignment tests/data/dialect/assignment --jobs 2 --out "$SCRATCH/report" tests/data/dialect/submissions
for d in tests/solutions/*/; do
  ex=$(basename "$d")
  case_ "grade-$ex" grade --assignment "lessons/$ex" --jobs 2 --out "$SCRATCH/report" "$d"
  case_ "check-$ex" lesson check "$ex" "$d" --json --lang en
done

# Runs every case with one binary, its outputs into one folder. What a case
# writes moves on with it, except the shards' folders, which stay for the
# merge after them (and move on with it).
run_all() {
  local bin=$1 dest=$2 n=0
  rm -rf "$SCRATCH"
  mkdir -p "$SCRATCH"
  for c in "${cases[@]}"; do
    eval "set -- $c"
    local name=$1
    shift
    n=$((n + 1))
    local tag
    tag=$(printf '%03d-%s' "$n" "$name")
    local code=0
    "$bin" "$@" >"$dest/$tag.out" 2>"$dest/$tag.err" </dev/null || code=$?
    echo "$code" >"$dest/$tag.code"
    case "$name" in
      grade-shard-*) continue ;;
    esac
    if [ -n "$(ls -A "$SCRATCH")" ]; then
      mv "$SCRATCH" "$dest/$tag.files"
      mkdir -p "$SCRATCH"
    fi
  done
  echo "$n cases run with $bin" >&2
}

run_all "$OLD" "$OUT/old"
run_all "$NEW" "$OUT/new"
rm -rf "$SCRATCH"

if diff -r "$OUT/old" "$OUT/new" >"$OUT/diff.txt"; then
  files=$(find "$OUT/old" -type f | wc -l)
  echo "identical: ${#cases[@]} cases, $files files compared (outputs in $OUT)"
  exit 0
fi
echo "DIFFERENT: see $OUT/diff.txt; the differing files:" >&2
grep -E '^(diff|Only in|Binary files)' "$OUT/diff.txt" >&2 || true
exit 1
