#!/usr/bin/env bash
# Smoke test of the desktop bundle: build it (packaging/build.sh), run the bundled executable
# offscreen for 3 iterations, and check that it saved a real screenshot of the window.
#
#   packaging/smoke_test.sh              # build, then run
#   packaging/smoke_test.sh --no-build   # reuse dist/robust-subspace-lab/
#   packaging/smoke_test.sh --xvfb       # also run it on a virtual X display (Qt's xcb plugin)
#
# Exit code 0 when each screenshot is a PNG at least 1000 px wide or larger than 100 KB.
# Not part of pytest (the build takes minutes); tests/test_bundle_files.py checks the files.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PYTHON="${PYTHON:-python3}"
BUILD=1
XVFB=0
for arg in "$@"; do
    case "$arg" in
        --no-build) BUILD=0 ;;
        --xvfb) XVFB=1 ;;
        -h|--help) sed -n '2,10p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "smoke_test.sh: unknown argument $arg (use --no-build, --xvfb)" >&2; exit 2 ;;
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

check_png() {
    "$PYTHON" - "$1" <<'PY'
import os
import sys

from PIL import Image

path = sys.argv[1]
if not os.path.isfile(path) or os.path.getsize(path) == 0:
    sys.exit(f"smoke_test.sh: FAIL: no screenshot at {path}")
size = os.path.getsize(path)
with Image.open(path) as im:
    im.load()                      # decodes the whole file: fails on a truncated PNG
    fmt, (w, h) = im.format, im.size
print(f"smoke_test.sh: screenshot {path}: {fmt} {w} x {h} px, {size / 1024:.0f} KB")
if fmt != "PNG" or not (w >= 1000 or size > 100 * 1024):
    sys.exit("smoke_test.sh: FAIL: expected a PNG of the window (>= 1000 px wide or > 100 KB)")
PY
}

# Run from an empty folder so that nothing from the source tree can be picked up by accident.
OUT="$OUT_DIR/out.png"
rm -f "$OUT"
echo "smoke_test.sh: running the bundle offscreen ..."
start=$(date +%s)
(cd "$OUT_DIR" && QT_QPA_PLATFORM=offscreen "$EXE" --screenshot "$OUT" --steps 3)
echo "smoke_test.sh: the bundle exited with 0 after $(( $(date +%s) - start )) s"
check_png "$OUT"

if [[ $XVFB == 1 ]]; then
    if ! command -v Xvfb >/dev/null; then
        echo "smoke_test.sh: FAIL: --xvfb needs Xvfb (Debian/Ubuntu: apt-get install xvfb)" >&2
        exit 1
    fi
    DISPLAY_FILE="$OUT_DIR/xvfb-display"
    rm -f "$DISPLAY_FILE"
    Xvfb -displayfd 3 -screen 0 1920x1200x24 -nolisten tcp 3>"$DISPLAY_FILE" 2>"$OUT_DIR/xvfb.log" &
    XVFB_PID=$!
    trap 'kill "$XVFB_PID" 2>/dev/null || true' EXIT
    for _ in $(seq 50); do [[ -s "$DISPLAY_FILE" ]] && break; sleep 0.2; done
    if [[ ! -s "$DISPLAY_FILE" ]]; then
        echo "smoke_test.sh: FAIL: Xvfb did not start (see $OUT_DIR/xvfb.log)" >&2
        exit 1
    fi
    XOUT="$OUT_DIR/out-xcb.png"
    rm -f "$XOUT"
    echo "smoke_test.sh: running the bundle on Xvfb display :$(cat "$DISPLAY_FILE") (xcb) ..."
    (cd "$OUT_DIR" && DISPLAY=":$(cat "$DISPLAY_FILE")" QT_QPA_PLATFORM=xcb "$EXE" --screenshot "$XOUT" --steps 3)
    check_png "$XOUT"
fi
echo "smoke_test.sh: OK"
