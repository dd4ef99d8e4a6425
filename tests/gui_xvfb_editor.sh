#!/usr/bin/env bash
# The editor in the real window under Xvfb, keys sent by xdotool: a line
# typed into a copy of Viergewinnt.asm is assembled in the background
# (its bytes appear), keys typed into the editor never press a board key,
# an error typed appears in Problems and goes away when fixed, Ctrl+Z
# undoes, Ctrl+S writes exactly the text, and Ctrl+. fixes a misspelt
# mnemonic.
#
#   tests/gui_xvfb_editor.sh BINARY
#
# Needs: apt-get install -y --no-install-recommends xvfb xdotool
set -euo pipefail
bin=${1:?binary}
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
mkdir "$work/src"
cp "$here"/firmware/*.asm "$here"/firmware/*.inc "$work/src/"
main="$work/src/Viergewinnt.asm"
report="$work/report"
line=$(grep -n 'jsr     drawPlayer' "$main" | head -1 | cut -d: -f1)

Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp 3>"$work/display" >"$work/xvfb.log" 2>&1 &
xvfb=$!
app=
trap 'kill "$app" "$xvfb" 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 100); do
  [ -s "$work/display" ] && break
  sleep 0.1
done
[ -s "$work/display" ] || { cat "$work/xvfb.log"; echo "Xvfb gave no display" >&2; exit 1; }
export DISPLAY=":$(tr -d '[:space:]' <"$work/display")"

args=()
[ "$(basename "$bin")" = "hc11lab" ] && args=(gui)
env -u WAYLAND_DISPLAY XDG_RUNTIME_DIR="$work" \
  HC11LAB_AUTORUN="edit=$line;editor_report=$report;size=1280x800" \
  "$bin" "${args[@]}" "$main" >"$work/app.log" 2>&1 &
app=$!

# `want PATTERN WHAT`: wait up to 30 s for the report to show PATTERN.
want() {
  for _ in $(seq 300); do
    grep -qE "$1" "$report" 2>/dev/null && return 0
    kill -0 "$app" 2>/dev/null || { cat "$work/app.log"; echo "the app exited" >&2; exit 1; }
    sleep 0.1
  done
  echo "--- report:"; cat "$report" 2>/dev/null || true
  echo "no $2 after 30 s" >&2
  exit 1
}

win=
for _ in $(seq 200); do
  win=$(xdotool search --onlyvisible --name hc11lab 2>/dev/null | head -1) && [ -n "$win" ] && break
  sleep 0.1
done
[ -n "$win" ] || { cat "$work/app.log" "$work/xvfb.log"; ls -la /tmp/.X11-unix; echo "no window" >&2; exit 1; }
# No window manager: the window gets the keyboard only when told.
for _ in $(seq 50); do
  xdotool windowfocus --sync "$win" 2>/dev/null && break
  sleep 0.1
done
want '^unsaved 0' "first assembly"

# A new line after `jsr drawPlayer`, with letters and blanks that are
# board keys outside the editor (r = reset, space = drop, digits).
xdotool key Return
xdotool type --delay 40 '        ldaa    #$41 ; r 0 1 3'
want ' 86 41$' "bytes of the typed line"
new=$((line + 1))
grep -q "^line $new: " "$report" || { cat "$report"; echo "the bytes are not on line $new" >&2; exit 1; }
want '^unsaved 1' "unsaved mark"
grep -q '^board_keys 0$' "$report" || { cat "$report"; echo "a key typed into the editor pressed a board key" >&2; exit 1; }

# An error, then fixed.
xdotool key Return
xdotool type --delay 40 '        ldab    #'
want '^problem error' "error in Problems"
xdotool type --delay 40 '5'
want " C6 05$" "the fixed line's bytes"
grep -q '^problem error' "$report" && { cat "$report"; echo "the error stayed after the fix" >&2; exit 1; }

# Undo takes the second line away (typed in one go: one step); Ctrl+S
# writes what the editor holds.
xdotool key ctrl+z
for _ in $(seq 300); do
  grep -q ' C6 05$' "$report" || break
  sleep 0.1
done
grep -q ' C6 05$' "$report" && { cat "$report"; echo "undo left the second line" >&2; exit 1; }
xdotool key ctrl+s
want '^unsaved 0' "saved"
# Exactly the original with the one line inserted.
awk -v n="$line" '{ print } NR == n { print "        ldaa    #$41 ; r 0 1 3" }' \
  "$here/firmware/Viergewinnt.asm" >"$work/expected"
cmp "$work/expected" "$main" || { diff "$work/expected" "$main" | head; echo "the saved file is not the text" >&2; exit 1; }

# From the keyboard alone: an error typed, Ctrl+. takes its fix.
xdotool key End Return
xdotool type --delay 40 '        ldaaa   #1'
want '^problem error' "the misspelt mnemonic's error"
xdotool key ctrl+period
want "^line $((line + 2)): .* 86 01\$" "the fixed line's bytes after Ctrl+."
for _ in $(seq 300); do
  grep -q '^problem error' "$report" || break
  sleep 0.1
done
grep -q '^problem error' "$report" && { cat "$report"; echo "Ctrl+. left the error" >&2; exit 1; }
echo "editor under Xvfb: typed line assembled ($(grep ' 86 41$' "$report")), error shown and fixed, undo, saved, Ctrl+. fixed; no board key pressed"
