#!/usr/bin/env bash
# Runs the whole nvp4c test suite. Execution tests need a Vulkan device; on
# a machine without a GPU that is Mesa's lavapipe (Debian/Ubuntu package
# mesa-vulkan-drivers). This script installs it when it is missing and it
# can (as root, or with passwordless sudo); otherwise it says what to run.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
compgen -G "/usr/share/vulkan/icd.d/lvp_icd.*.json" >/dev/null || missing+=(mesa-vulkan-drivers)
ldconfig -p 2>/dev/null | grep -q 'libvulkan\.so\.1' || missing+=(libvulkan1)
[ -e /usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json ] || missing+=(vulkan-validationlayers)
# The Vim syntax file is tested in a headless Vim (tests/tools/editors.rs).
command -v vim >/dev/null || missing+=(vim)
# Mesa's OpenGL (llvmpipe through surfaceless EGL): the independent oracle of
# the piglit tests (tests/device/piglit/mesa.rs).
ldconfig -p 2>/dev/null | grep -q 'libEGL\.so\.1' || missing+=(libegl1)
compgen -G "/usr/share/glvnd/egl_vendor.d/*mesa*.json" >/dev/null || missing+=(libegl-mesa0)
compgen -G "/usr/lib/*/dri/swrast_dri.so" >/dev/null || missing+=(libgl1-mesa-dri)

if [ ${#missing[@]} -gt 0 ]; then
  echo "test.sh: installing ${missing[*]} (a software Vulkan device, its validation layer, Mesa's OpenGL, Vim for the syntax file test)"
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    echo "test.sh: cannot install packages without root. Run:" >&2
    echo "    sudo apt-get install -y ${missing[*]}" >&2
    echo "then run this script again." >&2
    exit 1
  fi
fi

# The tree-sitter grammar's tests (tests/tools/editors.rs) run the
# tree-sitter CLI. Its npm package downloads a prebuilt binary from GitHub
# when installed, which CI cannot reach; the same CLI is built from
# crates.io instead (a few minutes, once per machine).
if ! command -v tree-sitter >/dev/null; then
  echo "test.sh: installing tree-sitter-cli (cargo install, for the tree-sitter grammar's tests)"
  cargo install tree-sitter-cli --locked --version 0.25.10 --quiet
fi

# Deterministic device choice and no stale Mesa shader cache.
lvp=$(compgen -G "/usr/share/vulkan/icd.d/lvp_icd.*.json" | head -n 1 || true)
[ -n "${VK_DRIVER_FILES:-}" ] || [ -z "$lvp" ] || export VK_DRIVER_FILES="$lvp"
export MESA_SHADER_CACHE_DISABLE=true

exec cargo test "$@"
