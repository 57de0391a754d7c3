#!/usr/bin/env bash
# Manual check (needs root, a Debian mirror and PyPI; ~10 min; NOT run by the test suite):
# on a minimal Debian 12 the app refuses to start naming the missing system libraries and the
# command that installs them, and the README's Debian/Ubuntu apt-get line, run exactly as written,
# lets it start.
#
#   sudo packaging/check_fresh_debian.sh            # root of the new system: /tmp/rsl-deb12
#   sudo TARGET=/tmp/deb12 MIRROR=http://deb.debian.org/debian packaging/check_fresh_debian.sh
#   (PIP_CERT=/path/ca.crt: a proxy's CA bundle for pip inside the new system)
#
# Steps: debootstrap --variant=minbase bookworm (skipped when TARGET already holds a system), then
# inside it (chroot with /proc and /dev mounted): python3, python3-venv, python3-pip, xvfb, sudo;
# a venv with the project's wheel (pip wheel --no-deps of this checkout; its dependencies come
# from PyPI); `robust-subspace-lab --screenshot /tmp/x.png --steps 2` with QT_QPA_PLATFORM=xcb on
# Xvfb must FAIL and name the libraries; then the README's line; then the same run must save the
# screenshot, copied to $OUT (default build/fresh-debian.png). Exit 0 when both hold.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TARGET="${TARGET:-/tmp/rsl-deb12}"
MIRROR="${MIRROR:-http://deb.debian.org/debian}"
OUT="${OUT:-$ROOT/build/fresh-debian.png}"
PYTHON="${PYTHON:-python3}"

if [[ $EUID != 0 ]]; then
    echo "check_fresh_debian.sh: needs root (debootstrap, chroot, mount)" >&2
    exit 2
fi
command -v debootstrap >/dev/null || apt-get install -y debootstrap

if [[ ! -x "$TARGET/usr/bin/apt-get" ]]; then
    debootstrap --variant=minbase bookworm "$TARGET" "$MIRROR"
fi

# the README's Debian/Ubuntu line: the first "sudo apt-get install" line of README.md
README_LINE="$(grep -m1 '^sudo apt-get install ' "$ROOT/README.md")"
echo "check_fresh_debian.sh: README line: $README_LINE"

mount -t proc proc "$TARGET/proc"
mount --bind /dev "$TARGET/dev"
trap 'umount "$TARGET/dev" "$TARGET/proc" 2>/dev/null || true' EXIT
cp /etc/resolv.conf "$TARGET/etc/resolv.conf"

in_chroot() { chroot "$TARGET" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 "$@"; }

# Python, a virtual X server, sudo (the README's line starts with it); answers "yes" to apt-get's
# question so that the README's line runs as written. Xvfb itself pulls in some of the X libraries
# (libx11-6, libxcb1, libgl1, ...), as a desktop has them: the check before the README's line then
# names the other 16 (2026-11: libEGL, libdbus-1, libfontconfig, libglib-2.0, libgthread-2.0 and 11
# libxcb/libxkbcommon ones).
in_chroot apt-get update -q
in_chroot apt-get install -y -q --no-install-recommends python3 python3-venv python3-pip xvfb xauth sudo
echo 'APT::Get::Assume-Yes "true";' > "$TARGET/etc/apt/apt.conf.d/90assume-yes"

# files handed to the new system, at this path inside it
STAGE=/opt/rsl-install
rm -rf "${TARGET:?}$STAGE"
"$PYTHON" -m pip wheel --quiet --no-deps -w "$TARGET$STAGE" "$ROOT"
in_chroot python3 -m venv /opt/rsl
WHEEL="$(cd "$TARGET$STAGE" && ls robust_subspace_lab-*.whl)"
# behind a TLS-intercepting proxy, PIP_CERT names its CA bundle: the chroot's pip uses a copy
PIP_CERT_ARG=()
if [[ -n "${PIP_CERT:-}" && -f "$PIP_CERT" ]]; then
    cp "$PIP_CERT" "$TARGET$STAGE/pip-ca.crt"
    PIP_CERT_ARG=(--cert "$STAGE/pip-ca.crt")
fi
in_chroot /opt/rsl/bin/pip install --quiet "${PIP_CERT_ARG[@]}" "$STAGE/$WHEEL"

run_app() {
    rm -f "$TARGET/tmp/x.png"
    in_chroot xvfb-run -a -s "-screen 0 1600x1000x24" /usr/bin/env QT_QPA_PLATFORM=xcb \
        /opt/rsl/bin/robust-subspace-lab --screenshot /tmp/x.png --steps 2
}

echo "check_fresh_debian.sh: 1. before the README's line (must fail and name the libraries)"
if run_app 2>"$TARGET/tmp/before.err"; then
    echo "check_fresh_debian.sh: FAIL: the app started without the system libraries?" >&2
    exit 1
fi
cat "$TARGET/tmp/before.err"
grep -q "these system libraries are missing" "$TARGET/tmp/before.err" \
    && grep -q "sudo apt-get install" "$TARGET/tmp/before.err" \
    || { echo "check_fresh_debian.sh: FAIL: the message names no library or no command" >&2; exit 1; }

echo "check_fresh_debian.sh: 2. the README's line"
in_chroot sh -c "$README_LINE"

echo "check_fresh_debian.sh: 3. after it (must save the screenshot)"
run_app
mkdir -p "$(dirname "$OUT")"
cp "$TARGET/tmp/x.png" "$OUT"
echo "check_fresh_debian.sh: OK: screenshot $OUT ($(stat -c %s "$OUT") bytes)"
