#!/usr/bin/env bash
# The Action's first step: which bucketlint to use and where it lives. Writes to $GITHUB_OUTPUT:
#   version  the release to download (v1.2.3), or empty to build the Action's own source
#   asset    the release asset's name, bucketlint_VERSION_GOOS_GOARCH[.exe]
#   dir      the directory the binary is cached in (actions/cache restores and saves it)
#   bin      the binary's path in dir
#   key      the cache key: the release, or a hash of the Go source for a build from source
# Environment: INPUT_VERSION (the version input: v1.2.3, "source", or empty for the Action's
# own ref when that is a release tag), ACTION_REF, GITHUB_ACTION_PATH, RUNNER_OS, RUNNER_ARCH,
# RUNNER_TOOL_CACHE (RUNNER_TEMP when unset).
set -euo pipefail

case "${RUNNER_OS:-Linux}" in
  Linux) goos=linux ;; macOS) goos=darwin ;; Windows) goos=windows ;;
  *) echo "::error::bucketlint: runner OS ${RUNNER_OS} is not supported"; exit 2 ;;
esac
case "${RUNNER_ARCH:-X64}" in
  X64) goarch=amd64 ;; ARM64) goarch=arm64 ;;
  *) echo "::error::bucketlint: runner architecture ${RUNNER_ARCH} is not supported"; exit 2 ;;
esac
ext=""
if [ "$goos" = windows ]; then ext=".exe"; fi

semver='^v[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$'
version="${INPUT_VERSION:-}"
if [ -z "$version" ] && [[ "${ACTION_REF:-}" =~ $semver ]]; then
  version="$ACTION_REF"
fi
if [ "$version" = source ]; then
  version=""
fi
if [ -n "$version" ] && ! [[ "$version" =~ $semver ]]; then
  echo "::error::bucketlint: version input $version: want a release tag such as v1.2.3, or source"
  exit 2
fi

sha256() { if command -v sha256sum >/dev/null; then sha256sum "$@"; else shasum -a 256 "$@"; fi; }

if [ -n "$version" ]; then
  key="bucketlint-$version-$goos-$goarch"
else
  # A build from source is keyed by what it is built from: the module files and the Go code.
  src="${GITHUB_ACTION_PATH:?GITHUB_ACTION_PATH is not set}"
  sum=$(cd "$src" && find . \( -name '*.go' -o -name go.mod -o -name go.sum \) -not -path '*/testdata/*' \
    | LC_ALL=C sort | while IFS= read -r f; do sha256 "$f"; done | sha256)
  key="bucketlint-src-${sum:0:16}-$goos-$goarch"
fi
dir="${RUNNER_TOOL_CACHE:-${RUNNER_TEMP:?RUNNER_TEMP is not set}}/bucketlint/$key"
{
  echo "version=$version"
  echo "asset=bucketlint_${version}_${goos}_${goarch}${ext}"
  echo "dir=$dir"
  echo "bin=$dir/bucketlint$ext"
  echo "key=$key"
} >> "$GITHUB_OUTPUT"
echo "bucketlint: ${version:-build from source} for $goos/$goarch, cache key $key"
