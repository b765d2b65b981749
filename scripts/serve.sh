#!/usr/bin/env bash
# Builds the release page with the bundled offer snapshot and serves it at
# http://127.0.0.1:8080 (Ctrl-C stops it).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
export PATH="$HOME/.cargo/bin:$PATH" TRUNK_SKIP_VERSION_CHECK=true
exec trunk serve --release --offline --address 127.0.0.1 --port 8080
