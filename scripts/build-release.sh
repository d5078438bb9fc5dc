#!/usr/bin/env bash
# Builds the `nvp4c` command for release as a statically linked executable
# (glibc, libm, libgcc and libstdc++ inside), which starts in about two
# thirds of the time of the default dynamically linked one: no shared
# libraries to map and no symbols for the loader to resolve
# (docs/performance.md, "Start-up").
#
# Only the binary is linked this way (`cargo rustc ... --bin nvp4c`): the
# library, tests and examples stay dynamic, since the device tests dlopen
# the Vulkan loader, which a static glibc cannot do reliably.
#
#   scripts/build-release.sh            # static-pie (keeps address-space randomisation)
#   NVP4C_NO_PIE=1 scripts/build-release.sh   # static, not position-independent:
#                                       # no self-relocation at start (~0.2 ms less), no ASLR
#
# The result is target/release/nvp4c. Needs glibc's static libraries
# (libc6-dev, installed with gcc on Debian).
set -euo pipefail
cd "$(dirname "$0")/.."

flags=(-C target-feature=+crt-static)
if [ "${NVP4C_NO_PIE:-0}" != 0 ]; then
  flags+=(-C relocation-model=static)
fi
# `touch` makes cargo link again when only the flags changed.
touch src/main.rs
cargo rustc --release --bin nvp4c "$@" -- "${flags[@]}"
file target/release/nvp4c 2>/dev/null || true
