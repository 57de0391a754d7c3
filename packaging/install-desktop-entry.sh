#!/usr/bin/env bash
# Add Robust Subspace Lab to the desktop's application menu (for the current user; no root).
#
#   ./install-desktop-entry.sh               # inside the bundle folder dist/robust-subspace-lab/
#   packaging/install-desktop-entry.sh       # in a source checkout, after packaging/build.sh
#   ./install-desktop-entry.sh --uninstall   # remove the menu entry and the icons again
#
# Copies the icons to $XDG_DATA_HOME/icons/hicolor/<N>x<N>/apps/robust-subspace-lab.png and the
# desktop entry to $XDG_DATA_HOME/applications/ (XDG_DATA_HOME defaults to ~/.local/share), with
# Exec= set to this bundle's executable, so the menu entry works without a PATH change.
set -euo pipefail

NAME="robust-subspace-lab"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
DATA_HOME="${XDG_DATA_HOME:-$HOME/.local/share}"

if [[ -x "$HERE/$NAME" && -d "$HERE/icons" ]]; then          # inside the bundle folder
    EXE="$HERE/$NAME"; ICONS="$HERE/icons"; DESKTOP="$HERE/$NAME.desktop"
else                                                        # packaging/ of a source checkout
    ROOT="$(cd "$HERE/.." && pwd)"
    EXE="$ROOT/dist/$NAME/$NAME"; ICONS="$ROOT/assets/icons"; DESKTOP="$ROOT/assets/$NAME.desktop"
fi

refresh() {
    command -v update-desktop-database >/dev/null && update-desktop-database -q "$DATA_HOME/applications" || true
    command -v gtk-update-icon-cache >/dev/null && gtk-update-icon-cache -q -t "$DATA_HOME/icons/hicolor" || true
}

if [[ "${1:-}" == "--uninstall" ]]; then
    rm -f "$DATA_HOME/applications/$NAME.desktop"
    rm -f "$DATA_HOME"/icons/hicolor/*/apps/"$NAME.png"
    refresh
    echo "Removed the $NAME menu entry and icons from $DATA_HOME."
    exit 0
elif [[ $# -gt 0 ]]; then
    echo "install-desktop-entry.sh: unknown argument $1 (use --uninstall)" >&2
    exit 2
fi

if [[ ! -x "$EXE" ]]; then
    echo "install-desktop-entry.sh: no executable at $EXE (build the bundle first: packaging/build.sh)" >&2
    exit 1
fi

case "$EXE" in
    *[\"\`\$\\\|\&%]*|*$'\n'*)
        echo "install-desktop-entry.sh: the path $EXE contains a character a desktop entry's Exec= cannot" \
             "take unescaped (\" \` \$ \\ | & % or a newline); move the bundle folder elsewhere" >&2
        exit 1 ;;
esac

count=0
for icon in "$ICONS/$NAME"-*.png; do
    size="${icon##*-}"; size="${size%.png}"
    install -D -m 644 "$icon" "$DATA_HOME/icons/hicolor/${size}x${size}/apps/$NAME.png"
    count=$((count + 1))
done
mkdir -p "$DATA_HOME/applications"
# Exec= gets the absolute path of the executable (quoted: the path may contain spaces)
sed "s|^Exec=.*|Exec=\"$EXE\"|" "$DESKTOP" > "$DATA_HOME/applications/$NAME.desktop"
chmod 644 "$DATA_HOME/applications/$NAME.desktop"
refresh
echo "Installed the menu entry $DATA_HOME/applications/$NAME.desktop ($count icon sizes)."
echo "It starts $EXE"
