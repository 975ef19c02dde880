#!/usr/bin/env bash
# The Action's install step: reuse the binary the cache restored, or download the release asset
# and its SHA256SUMS and install the asset only when its checksum matches. Writes to
# $GITHUB_OUTPUT installed=true (and how=cache or how=download), or installed=false when there
# is no release to download (a build from source follows). A checksum that does not match fails
# the step: a download that is not the release is never run, nor silently replaced by a build.
# Environment: BIN, DIR, VERSION, ASSET (from resolve.sh); RELEASES (default
# https://github.com/bucketlint/bucketlint/releases/download).
set -euo pipefail
releases="${RELEASES:-https://github.com/bucketlint/bucketlint/releases/download}"

if [ -f "$BIN" ] && out=$("$BIN" --version 2>&1); then
  echo "bucketlint: using the cached $out ($BIN)"
  { echo "installed=true"; echo "how=cache"; } >> "$GITHUB_OUTPUT"
  exit 0
fi
if [ -z "$VERSION" ]; then
  echo "bucketlint: no release version (the Action runs from a branch or commit): building from source"
  echo "installed=false" >> "$GITHUB_OUTPUT"
  exit 0
fi

mkdir -p "$DIR"
tmp=$(mktemp -d "$DIR/download.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
if ! curl -fsSL --retry 3 -o "$tmp/$ASSET" "$releases/$VERSION/$ASSET" ||
   ! curl -fsSL --retry 3 -o "$tmp/SHA256SUMS" "$releases/$VERSION/SHA256SUMS"; then
  echo "::warning::bucketlint: could not download release $VERSION ($ASSET); building from source instead"
  echo "installed=false" >> "$GITHUB_OUTPUT"
  exit 0
fi

want=""
while read -r sum name; do
  if [ "${name#\*}" = "$ASSET" ]; then want="$sum"; fi
done < "$tmp/SHA256SUMS"
if command -v sha256sum >/dev/null; then got=$(sha256sum "$tmp/$ASSET"); else got=$(shasum -a 256 "$tmp/$ASSET"); fi
got="${got%% *}"
if [ -z "$want" ]; then
  echo "::error::bucketlint: SHA256SUMS of $VERSION lists no $ASSET; refusing to run an unverified download"
  exit 1
fi
if [ "$got" != "$want" ]; then
  echo "::error::bucketlint: $ASSET has SHA-256 $got but the release's SHA256SUMS says $want; refusing to run it"
  exit 1
fi
chmod +x "$tmp/$ASSET"
mv "$tmp/$ASSET" "$BIN"
echo "bucketlint: downloaded $("$BIN" --version) ($ASSET, SHA-256 $got verified)"
{ echo "installed=true"; echo "how=download"; } >> "$GITHUB_OUTPUT"
