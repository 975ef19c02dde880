#!/usr/bin/env bash
# The Action's check step: run bucketlint check in the workspace with annotations (or text),
# a SARIF report and a Markdown report, and append the Markdown to the job summary. Writes to
# $GITHUB_OUTPUT exit-code, and sarif and markdown: each report's path when the file was
# written, empty otherwise (the upload and comment steps test these, not hashFiles, which sees
# nothing outside the workspace).
# Environment: BIN, PATHS and ARGS (word lists), FAIL_ON, ANNOTATIONS, RUNNER_TEMP.
set -euo pipefail
reports="$RUNNER_TEMP/bucketlint-reports"
mkdir -p "$reports"
sarif="$reports/bucketlint.sarif" md="$reports/bucketlint.md"
rm -f "$sarif" "$md"
formats=(--format "sarif=$sarif" --format "markdown=$md")
if [ "${ANNOTATIONS:-true}" = true ]; then formats+=(--format github); else formats+=(--format text); fi
read -r -a args <<< "${ARGS:-}"
read -r -a paths <<< "${PATHS:-.}"
set +e
"$BIN" check --fail-on "${FAIL_ON:-warning}" "${formats[@]}" ${args[@]+"${args[@]}"} -- "${paths[@]}"
code=$?
set -e
echo "exit-code=$code" >> "$GITHUB_OUTPUT"
if [ -s "$sarif" ]; then echo "sarif=$sarif" >> "$GITHUB_OUTPUT"; else echo "sarif=" >> "$GITHUB_OUTPUT"; fi
if [ -s "$md" ]; then
  echo "markdown=$md" >> "$GITHUB_OUTPUT"
  if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then cat "$md" >> "$GITHUB_STEP_SUMMARY"; fi
else
  echo "markdown=" >> "$GITHUB_OUTPUT"
fi
