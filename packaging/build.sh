#!/usr/bin/env bash
# Build the one-folder desktop bundle of Robust Subspace Lab with PyInstaller.
#
#   packaging/build.sh            # from anywhere; the bundle goes to <repo>/dist/robust-subspace-lab/
#
# Installs the project with its "bundle" extra (PyInstaller) into the current Python when
# PyInstaller is missing, checks that this machine has the system libraries Qt's xcb plugin needs
# (they are copied into the bundle; the README's apt-get/dnf line), then runs PyInstaller on
# packaging/robust-subspace-lab.spec.
# Environment: PYTHON (default: python3) picks the interpreter.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PYTHON="${PYTHON:-python3}"
cd "$ROOT"

if ! "$PYTHON" -c "import PyInstaller" 2>/dev/null; then
    echo "build.sh: installing the project with the 'bundle' extra (PyInstaller) ..."
    "$PYTHON" -m pip install -e ".[bundle]"
fi

# PyInstaller copies the X11/xcb libraries Qt's xcb plugin links from THIS machine into the bundle:
# a library missing here is missing from the bundle (the bundled app then refuses to open a window
# on machines without it). Refuse to build without them (the README's apt-get / dnf line).
MISSING="$("$PYTHON" -c 'from robust_subspace_lab.app.system_check import install_hint, missing_libraries
m = missing_libraries()
print(install_hint(m) if m else "")')"
if [[ -n "$MISSING" && "${RSL_ALLOW_MISSING_LIBS:-0}" != 1 ]]; then
    echo "build.sh: the bundle would lack system libraries Qt needs, because this machine lacks them:" >&2
    echo "$MISSING" >&2
    echo "build.sh: install them and build again (or RSL_ALLOW_MISSING_LIBS=1 to build anyway)" >&2
    exit 1
fi

# The package as a wheel would install it (robust_subspace_lab/core, /app, core/assets): the repo's
# folders core/ and app/ become robust_subspace_lab.core and .app only through setuptools'
# package-dir, which PyInstaller's analysis does not read. The spec analyses this staged copy.
STAGE="$ROOT/build/stage"
rm -rf "$STAGE"
"$PYTHON" -m pip install --quiet --no-deps --target "$STAGE" "$ROOT"
export RSL_STAGE="$STAGE"

# One BLAS thread while PyInstaller imports numpy/scipy to analyse them (kinder to shared machines).
OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 \
    "$PYTHON" -m PyInstaller --noconfirm --clean \
    --distpath "$ROOT/dist" --workpath "$ROOT/build/pyinstaller" \
    "$ROOT/packaging/robust-subspace-lab.spec"

BUNDLE="$ROOT/dist/robust-subspace-lab"
EXE="$BUNDLE/robust-subspace-lab"
if [[ ! -x "$EXE" ]]; then
    echo "build.sh: PyInstaller finished but $EXE is missing" >&2
    exit 1
fi
# Next to the executable: the menu-entry installer, its desktop file and the icons.
cp "$ROOT/packaging/install-desktop-entry.sh" "$ROOT/assets/robust-subspace-lab.desktop" "$BUNDLE/"
mkdir -p "$BUNDLE/icons"
cp "$ROOT/assets/icons/"robust-subspace-lab-*.png "$BUNDLE/icons/"

echo
echo "Bundle: $BUNDLE ($(du -sh "$BUNDLE" | cut -f1))"
echo "Run:    $EXE"
echo "Menu:   $BUNDLE/install-desktop-entry.sh   (adds it to the desktop's application menu)"
echo "Hand the whole folder to others (e.g. tar czf robust-subspace-lab.tar.gz -C dist robust-subspace-lab)."
