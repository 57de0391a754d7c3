#!/usr/bin/env bash
# Smoke test of the desktop bundle: build it (packaging/build.sh), run the bundled executable
# offscreen for 3 iterations, and check that it saved a real screenshot of the window.
#
#   packaging/smoke_test.sh              # build, then run
#   packaging/smoke_test.sh --no-build   # reuse dist/robust-subspace-lab/
#
# Exit code 0 when the screenshot is a PNG at least 1000 px wide or larger than 100 KB.
# Not part of pytest (the build takes minutes); tests/test_bundle_files.py checks the files.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PYTHON="${PYTHON:-python3}"
BUILD=1
for arg in "$@"; do
    case "$arg" in
        --no-build) BUILD=0 ;;
        -h|--help) sed -n '2,10p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "smoke_test.sh: unknown argument $arg (use --no-build)" >&2; exit 2 ;;
    esac
done

EXE="$ROOT/dist/robust-subspace-lab/robust-subspace-lab"
if [[ $BUILD == 1 ]]; then
    "$ROOT/packaging/build.sh"
elif [[ ! -x "$EXE" ]]; then
    echo "smoke_test.sh: no bundle at $EXE; run without --no-build" >&2
    exit 1
fi

OUT_DIR="$ROOT/build/smoke-test"
mkdir -p "$OUT_DIR"
OUT="$OUT_DIR/out.png"
rm -f "$OUT"

echo "smoke_test.sh: running the bundle offscreen ..."
start=$(date +%s)
# Run from an empty folder so that nothing from the source tree can be picked up by accident.
(cd "$OUT_DIR" && QT_QPA_PLATFORM=offscreen "$EXE" --screenshot "$OUT" --steps 3)
echo "smoke_test.sh: the bundle exited with 0 after $(( $(date +%s) - start )) s"

if [[ ! -s "$OUT" ]]; then
    echo "smoke_test.sh: FAIL: no screenshot at $OUT" >&2
    exit 1
fi
"$PYTHON" - "$OUT" <<'PY'
import os
import sys

from PIL import Image

path = sys.argv[1]
size = os.path.getsize(path)
with Image.open(path) as im:
    im.load()                      # decodes the whole file: fails on a truncated PNG
    fmt, (w, h) = im.format, im.size
print(f"smoke_test.sh: screenshot {path}: {fmt} {w} x {h} px, {size / 1024:.0f} KB")
if fmt != "PNG" or not (w >= 1000 or size > 100 * 1024):
    sys.exit("smoke_test.sh: FAIL: expected a PNG of the window (>= 1000 px wide or > 100 KB)")
print("smoke_test.sh: OK")
PY
