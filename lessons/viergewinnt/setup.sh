#!/usr/bin/env bash
# Gradescope image setup for hc11lab: builds the command line tool without
# the GUI from the sources Gradescope unpacked to /autograder/source.
set -euo pipefail

apt-get update -qq
apt-get install -y -qq --no-install-recommends curl ca-certificates build-essential >/dev/null
curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh -s -- -y --profile minimal
# shellcheck disable=SC1091
. "$HOME/.cargo/env"
cargo install --locked --no-default-features --path /autograder/source --root /usr/local
hc11lab --version
