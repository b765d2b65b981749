#!/usr/bin/env bash
# Installs what building and testing whichgpu needs, only where missing.
# Every tool comes from a package registry (crates.io, npm, PyPI, Debian): nothing
# else is downloaded. Safe to run again; with everything present it takes
# about a second.
#
#   scripts/setup.sh           tools to build and serve the page
#   scripts/setup.sh --test    also Chromium, ChromeDriver, the e2e packages, twiggy and zizmor
set -euo pipefail
cd "$(dirname "$0")/.."

TRUNK_VERSION=0.21.14
BINARYEN_VERSION=132
TWIGGY_VERSION=0.8.0
WASM_SPLIT_VERSION=0.2.4
ZIZMOR_VERSION=1.32.0
WITH_TEST=false
[[ "${1:-}" == "--test" ]] && WITH_TEST=true

say() { printf '\033[1m[setup]\033[0m %s\n' "$*"; }
have() { command -v "$1" >/dev/null 2>&1; }
export PATH="$HOME/.cargo/bin:$PATH"

if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi
for component in rustfmt clippy; do
  if ! rustup component list --installed 2>/dev/null | grep -q "^$component"; then
    say "adding rustup component $component"
    rustup component add "$component"
  fi
done

if ! have trunk || [[ "$(trunk --version 2>/dev/null)" != "trunk $TRUNK_VERSION" ]]; then
  say "installing trunk $TRUNK_VERSION (about 8 minutes, once)"
  cargo install --locked trunk --version "$TRUNK_VERSION"
fi

# wasm-bindgen-cli must match the wasm-bindgen crate in Cargo.lock exactly.
# Not --locked: one of its locked dependencies is missing from crates.io.
WASM_BINDGEN_VERSION=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' Cargo.lock)
if ! have wasm-bindgen || [[ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $WASM_BINDGEN_VERSION" ]] \
  || ! have wasm-bindgen-test-runner; then
  say "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (about 3 minutes, once)"
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION"
fi

# Debian's binaryen is too old for Trunk's wasm-opt step.
if ! have wasm-opt || ! wasm-opt --version 2>/dev/null | grep -q "version $BINARYEN_VERSION"; then
  say "installing binaryen@$BINARYEN_VERSION (wasm-opt) from npm"
  npm install -g "binaryen@$BINARYEN_VERSION"
fi

# The page's module is cut in two after the build (scripts/split-module.mjs,
# issue 38): wasm-split-cli, the splitter cargo-leptos uses for Leptos's
# `#[lazy]`, from its crate on crates.io.
if ! have wasm-split-cli || ! cargo install --list | grep -qx "wasm_split_cli_support v$WASM_SPLIT_VERSION:"; then
  say "installing wasm-split-cli $WASM_SPLIT_VERSION (about a minute, once)"
  cargo install --locked wasm_split_cli_support --version "$WASM_SPLIT_VERSION" --features build-binary
fi

if $WITH_TEST; then
  if ! have chromium || ! have chromedriver; then
    say "installing Debian's chromium and chromium-driver"
    SUDO=""; [[ $(id -u) -ne 0 ]] && SUDO=sudo
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium chromium-driver >/dev/null
  fi
  # The fuzzers run on the nightly toolchain when the machine has one
  # (rustup's toolchains are not a package registry, so it is not installed here).
  if rustup toolchain list 2>/dev/null | grep -q '^nightly' && ! cargo fuzz --version >/dev/null 2>&1; then
    say "installing cargo-fuzz (about a minute, once)"
    cargo install cargo-fuzz
  fi
  # The size report's breakdown of the module by crate and function (issue 22).
  if ! have twiggy || [[ "$(twiggy --version 2>/dev/null)" != *" $TWIGGY_VERSION" ]]; then
    say "installing twiggy $TWIGGY_VERSION (about 2 minutes, once)"
    cargo install --locked twiggy --version "$TWIGGY_VERSION"
  fi
  # The workflow linter (scripts/lint-workflows.sh): zizmor's PyPI wheel
  # carries its binary, which goes beside the cargo tools (pip's --target
  # leaves the system's Python alone, as Debian asks).
  if ! have zizmor || [[ "$(zizmor --version 2>/dev/null)" != "zizmor $ZIZMOR_VERSION" ]]; then
    if ! python3 -m pip --version >/dev/null 2>&1; then
      say "installing Debian's python3-pip (for zizmor)"
      SUDO=""; [[ $(id -u) -ne 0 ]] && SUDO=sudo
      $SUDO apt-get update -qq
      DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq python3-pip >/dev/null
    fi
    say "installing zizmor $ZIZMOR_VERSION (the workflow linter) from PyPI"
    wheel=$(mktemp -d)
    python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore \
      --no-deps --only-binary=:all: --target "$wheel" "zizmor==$ZIZMOR_VERSION"
    mkdir -p "$HOME/.cargo/bin"
    install -m 755 "$wheel/bin/zizmor" "$HOME/.cargo/bin/zizmor"
    rm -rf "$wheel"
  fi
  if [[ ! -d tests/e2e/node_modules/playwright-core || ! -d tests/e2e/node_modules/axe-core ]]; then
    say "installing the e2e packages (playwright-core, driving /usr/bin/chromium; axe-core)"
    (cd tests/e2e && npm ci --no-audit --no-fund --silent)
  fi
fi
