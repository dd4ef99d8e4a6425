#!/usr/bin/env bash
# Gradescope image setup for hc11lab: builds the command line tool without
# the GUI from the sources Gradescope unpacked to /autograder/source, then
# runs the reference solution through the assignment's checks once and
# keeps the result in the image (reference.prepared beside assignment.toml),
# so each submission's grading starts without running the reference.
set -euo pipefail

ASSIGNMENT="${HC11LAB_ASSIGNMENT:-/autograder/source/lessons/viergewinnt}"

apt-get update -qq
apt-get install -y -qq --no-install-recommends curl ca-certificates build-essential >/dev/null
curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh -s -- -y --profile minimal
# shellcheck disable=SC1091
. "$HOME/.cargo/env"
cargo install --locked --no-default-features --path /autograder/source --root /usr/local
hc11lab --version
hc11lab grade --prepare --assignment "$ASSIGNMENT"
