#!/usr/bin/env bash
# Builds the web page into target/web/ (index.html, the .wasm, its
# JavaScript glue, lessons.zip) on a machine whose rustup cannot install the
# wasm32-unknown-unknown target (Debian bookworm build machines: the
# registries there carry no rust-std for it). The usual route with rustup
# is in docs/web.md; this script is for such machines and for .ci/web.
#
# How: Debian's security updates carry a newer compiler built for browsers
# (rustc-web) with its standard library's source. Its packages are
# unpacked (not installed) into a cache folder and std is built for wasm32
# with cargo's -Zbuild-std (RUSTC_BOOTSTRAP=1 allows that on a stable
# compiler, here only). The wasm-bindgen command line tool is built from
# the crate registry at the version Cargo.lock has. Both stay in the cache
# ($HC11LAB_WEB_CACHE, default ~/.cache/hc11lab-web) for the next run; the
# build's own files in target/web-build/.
#
# Usage: scripts/web-build.sh [--lessons DIR]   (default: lessons/)
set -euo pipefail
cd "$(dirname "$0")/.."

lessons=lessons
while [ $# -gt 0 ]; do
  case "$1" in
    --lessons) lessons="${2:?--lessons needs a folder}"; shift 2 ;;
    -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
    *) echo "web-build: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
[ -d "$lessons" ] || { echo "web-build: $lessons is not a folder" >&2; exit 2; }

cache="${HC11LAB_WEB_CACHE:-$HOME/.cache/hc11lab-web}"
out=target/web
build=target/web-build
mkdir -p "$cache" "$out" "$build"

sudo_=""
[ "$(id -u)" -ne 0 ] && sudo_="sudo"

# 1. The compiler: rustup's wasm32 target if it has one, else rustc-web.
if rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  echo "web-build: rustup's wasm32-unknown-unknown target"
  build_std=()
else
  rw="$cache/rust-web"
  if [ ! -x "$rw/usr/bin/rustc" ]; then
    echo "web-build: fetching Debian's rustc-web into $cache (about 144 MB, once)"
    debs="$cache/debs"
    mkdir -p "$debs"
    $sudo_ apt-get update -qq
    (cd "$debs" && apt-get download rustc-web cargo-web libstd-rust-web-1.96 \
      libstd-rust-web-dev rust-web-src libllvm22)
    rm -rf "$rw.partial" && mkdir -p "$rw.partial"
    for d in "$debs"/*.deb; do dpkg -x "$d" "$rw.partial"; done
    mv "$rw.partial" "$rw"
  fi
  linker="$(rustc --print sysroot 2>/dev/null)/lib/rustlib/x86_64-unknown-linux-gnu/bin/rust-lld"
  if [ ! -x "$linker" ]; then
    linker="$(command -v wasm-ld || true)"
    [ -n "$linker" ] || { echo "web-build: no WebAssembly linker: rustup's rust-lld or Debian's lld (apt-get install lld)" >&2; exit 1; }
  fi
  export RUSTC="$rw/usr/bin/rustc"
  export LD_LIBRARY_PATH="$rw/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  export RUSTC_BOOTSTRAP=1
  export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER="$linker"
  echo "web-build: $("$RUSTC" --version) with -Zbuild-std"
  build_std=(-Zbuild-std=std,panic_abort)
fi

# 2. wasm-bindgen's command line tool, the version the crate has.
version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' Cargo.lock)
[ -n "$version" ] || { echo "web-build: no wasm-bindgen in Cargo.lock" >&2; exit 1; }
bindgen="$cache/wasm-bindgen-$version/bin/wasm-bindgen"
if [ ! -x "$bindgen" ]; then
  echo "web-build: building wasm-bindgen-cli $version (once, a few minutes)"
  # Built by the machine's own toolchain, not rustc-web.
  env -u RUSTC -u RUSTC_BOOTSTRAP cargo install wasm-bindgen-cli --version "$version" \
    --root "$cache/wasm-bindgen-$version"
fi

# 3. The page.
cargo build --release "${build_std[@]}" --target wasm32-unknown-unknown \
  --target-dir "$build" --bin hc11lab
"$bindgen" --target web --no-typescript --out-dir "$out" --out-name hc11lab \
  "$build/wasm32-unknown-unknown/release/hc11lab.wasm"
# trunk's two lines make way for the loader wasm-bindgen's glue wants.
awk '
  /<link data-trunk rel="rust"/ {
    print "<script type=\"module\">import init from \"./hc11lab.js\"; init();</script>"; next }
  /<link data-trunk / { next }
  { print }' web/index.html > "$out/index.html"
python3 scripts/pack-lessons.py "$lessons" "$out/lessons.zip"

wasm_bytes=$(stat -c %s "$out/hc11lab_bg.wasm")
gz_bytes=$(gzip -9 -c "$out/hc11lab_bg.wasm" | wc -c)
echo "web-build: $out/ ready: hc11lab_bg.wasm $wasm_bytes bytes ($gz_bytes gzipped), lessons.zip $(stat -c %s "$out/lessons.zip") bytes"
echo "web-build: serve it with: python3 -m http.server -d $out 8080"
