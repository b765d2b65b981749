#!/usr/bin/env bash
# Checks that the shared data is beside the checkout, where the build and the
# tests read it, and fails with what to do when it is not.
#
# The catalogs (gpus.csv, models.csv, providers.csv, cluster_fabrics.csv), the
# calibration tables and the offer sources are not in this repository: they
# are the project's shared data, the shared/data folder of the repository that
# steers the project, laid beside this repository as ../shared/data. The
# workflows check out the repository named by the variable
# WHICHGPU_SHARED_REPO at ../shared; WHICHGPU_SHARED_DATA (default
# ../shared/data, relative to this repository) says where its data folder is.
# The tests read ../shared/data itself (tests/cli.rs, the calibration tests),
# so a folder elsewhere is linked there.
set -euo pipefail
cd "$(dirname "$0")/../.."

data="${WHICHGPU_SHARED_DATA:-../shared/data}"
missing=()
for entry in gpus.csv models.csv providers.csv cluster_fabrics.csv calibration offers; do
  [[ -e "$data/$entry" ]] || missing+=("$entry")
done
if ((${#missing[@]})); then
  echo "::error title=Shared data missing::No shared data at $data (relative to the checkout): missing ${missing[*]}." \
    "Set the repository variable WHICHGPU_SHARED_REPO to the repository (owner/name) that holds the project's shared data," \
    "WHICHGPU_SHARED_DATA to its data folder if that is not ../shared/data, and the secret WHICHGPU_SHARED_TOKEN if it is private."
  exit 1
fi

if [[ ! -e ../shared/data ]]; then
  mkdir -p ../shared
  ln -s "$(realpath "$data")" ../shared/data
  echo "Linked ../shared/data to $data"
elif [[ "$(realpath ../shared/data)" != "$(realpath "$data")" ]]; then
  echo "::error title=Shared data ambiguous::The tests read ../shared/data, which is not WHICHGPU_SHARED_DATA ($data)."
  exit 1
fi
echo "Shared data: $(realpath "$data")"
