#!/usr/bin/env bash
# CI entry for the oracle. Always: the Spark-free unit tests. With BUCKETLINT_SPARK=local:
# create the venvs (oracle/setup.sh) and re-run a deterministic sample of scenarios live per
# pinned version, diffing against the committed fixtures (exit 1 on any difference).
#   BUCKETLINT_ORACLE_SAMPLE   scenarios per version (default 25; "all" for a full check)
#   BUCKETLINT_ORACLE_SEED     sample seed (default: day of year, so CI rotates through all)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
py=python3
if ! python3 -c 'import yaml, pytest' 2>/dev/null; then
  # No PyYAML/pytest on this Python: use the first pinned venv (created by setup.sh).
  bash oracle/setup.sh
  read -r _ first < <(grep -v '^#' oracle/versions.txt | grep .)
  py="${BUCKETLINT_VENV_DIR:-$HOME/.cache/bucketlint}/venv-$first/bin/python"
fi
"$py" -m pytest -q oracle/tests
if [[ "${BUCKETLINT_SPARK:-}" != "local" ]]; then
  echo "oracle: live Spark check skipped (set BUCKETLINT_SPARK=local to run it)"
  exit 0
fi
bash oracle/setup.sh
sample="${BUCKETLINT_ORACLE_SAMPLE:-25}"
seed="${BUCKETLINT_ORACLE_SEED:-$(date -u +%j | sed 's/^0*//')}"
status=0
while read -r series _; do
  [[ -z "$series" || "$series" == \#* ]] && continue
  args=(--spark "$series" oracle/scenarios/ "fixtures/spark/$series/")
  [[ "$sample" != "all" ]] && args+=(--sample "$sample" --sample-seed "$seed")
  "$py" -m oracle check "${args[@]}" || status=1
done < oracle/versions.txt
exit "$status"
