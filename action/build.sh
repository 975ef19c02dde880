#!/usr/bin/env bash
# The Action's fallback: build bucketlint from the Action's own source when no release binary
# could be had, static and with the version stamped when there is one, into the cached BIN.
# It is the engine build (-tags engine), as the release binaries are, so that the binary does
# the same whichever way it was had (args: --verify included).
# Environment: GITHUB_ACTION_PATH, BIN, VERSION.
set -euo pipefail
mkdir -p "$(dirname "$BIN")"
cd "$GITHUB_ACTION_PATH"
ldflags="-s -w"
if [ -n "${VERSION:-}" ]; then ldflags="$ldflags -X main.stampedVersion=$VERSION"; fi
CGO_ENABLED=0 go build -tags engine -trimpath -ldflags "$ldflags" -o "$BIN" ./cmd/bucketlint
echo "bucketlint: built $("$BIN" --version) from source"
