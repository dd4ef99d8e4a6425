#!/usr/bin/env bash
# Screenshot of the real hc11lab window under Xvfb, for CI and the docs.
#
#   tests/gui_xvfb.sh BINARY OUT.png [AUTORUN] [WIDTHxHEIGHT]
#
# BINARY is the hc11lab binary (or target/release/examples/gui); AUTORUN is
# an HC11LAB_AUTORUN value (default: two drops and a pixel selected); the
# screen and the window are WIDTHxHEIGHT (default 1280x800). The
# script starts Xvfb, runs the app with the key script, waits
# for its done file, takes the screenshot with ImageMagick's `import`,
# prints the done file (stop reason, cycles, frame times) and lets the app
# close itself. The frame times are those of the real window: 120 frames
# drawn back to back after the script (`whole_ms_*`: start of one frame to
# the start of the next, buffer swap included), then one idle second in
# which the paused app should draw nothing (`idle_frames`). The last line
# sums them up. Environment: SCALE=N runs the window at that HiDPI scale
# (winit's X11 scale factor); POINTER="X Y" rests the pointer there (screen
# pixels) from the moment the window shows, so the idle second is measured
# with it hovering there. Needs: apt-get install -y --no-install-recommends
# xvfb imagemagick x11-apps xdotool
set -euo pipefail
bin=${1:?binary}
out=${2:?output png}
work=$(mktemp -d)
done_file="$work/done"
autorun=${3:-"keys=right,drop,drop;select=pixel:71,43"}
size=${4:-1280x800}
case "$size" in *[!0-9x]*|x*|*x) echo "bad size $size (WIDTHxHEIGHT)" >&2; exit 2 ;; esac
case "$autorun" in *frames=*) ;; *) autorun="$autorun;frames=120" ;; esac
case "$autorun" in *idle_ms=*) ;; *) autorun="$autorun;idle_ms=1000" ;; esac
autorun="$autorun;size=$size;done=$done_file;quit_after_ms=3000"

# Xvfb picks a free display itself and writes its number once it accepts
# connections (-displayfd): no guessing, no race with a server still exiting.
Xvfb -displayfd 3 -screen 0 "${size}x24" -nolisten tcp 3>"$work/display" >"$work/xvfb.log" 2>&1 &
xvfb=$!
trap 'kill "$xvfb" 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 100); do
  [ -s "$work/display" ] && break
  kill -0 "$xvfb" 2>/dev/null || { cat "$work/xvfb.log"; echo "Xvfb did not start" >&2; exit 1; }
  sleep 0.1
done
[ -s "$work/display" ] || { cat "$work/xvfb.log"; echo "Xvfb gave no display after 10 s" >&2; exit 1; }
display=":$(tr -d '[:space:]' <"$work/display")"

args=()
[ "$(basename "$bin")" = "hc11lab" ] && args=(gui)
scale=()
[ -n "${SCALE:-}" ] && scale=(WINIT_X11_SCALE_FACTOR="$SCALE")
env -u WAYLAND_DISPLAY DISPLAY="$display" XDG_RUNTIME_DIR="$work" "${scale[@]}" \
  HC11LAB_AUTORUN="$autorun" "$bin" "${args[@]}" >"$work/app.log" 2>&1 &
app=$!
if [ -n "${POINTER:-}" ]; then
  for _ in $(seq 100); do
    DISPLAY="$display" xdotool search --name hc11lab >/dev/null 2>&1 && break
    sleep 0.1
  done
  # shellcheck disable=SC2086 # "X Y" are two arguments
  DISPLAY="$display" xdotool mousemove $POINTER || true
fi

for _ in $(seq 120); do
  [ -f "$done_file" ] && break
  if ! kill -0 "$app" 2>/dev/null; then
    # The done file may have come just before the window closed.
    [ -f "$done_file" ] && break
    status=0
    wait "$app" || status=$?
    cat "$work/app.log"
    echo "app exited early (exit status $status, load $(cut -d' ' -f1-3 /proc/loadavg))" >&2
    exit 1
  fi
  sleep 0.5
done
[ -f "$done_file" ] || { cat "$work/app.log"; echo "no done file after 60 s" >&2; exit 1; }
# Pointer out of the way (no tooltip in the picture).
DISPLAY="$display" xdotool mousemove "$(( ${size%x*} - 1 ))" "$(( ${size#*x} - 1 ))" || true
sleep 0.5
DISPLAY="$display" import -window root "$out"
cat "$done_file"
awk '/^whole_ms_mean/ {m=$2} /^whole_ms_p95/ {p=$2} /^idle_frames/ {i=$2}
  END {printf "whole frame at " size ": mean %s ms, p95 %s ms; frames drawn while idle: %s; load %s\n", m, p, i, load}' \
  load="$(cut -d' ' -f1-3 /proc/loadavg)" size="$size" "$done_file"
wait "$app" || true
