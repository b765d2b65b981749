#!/usr/bin/env bash
# Lints the GitHub Actions workflows and their composite action with zizmor
# (PyPI; scripts/setup.sh --test installs it): a file that is not valid YAML
# or does not match GitHub's workflow or action schema fails
# (--strict-collection; without it zizmor skips such a file with a warning),
# and so does any finding of its audits: template injection, credentials left
# in a checkout, unpinned actions, permissions wider than declared… The
# repository's policy is .github/zizmor.yml. Offline: nothing is asked of
# GitHub.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
exec zizmor --offline --strict-collection --no-progress "${@:-.github}"
