#!/usr/bin/env bash
# CI entry for the oracle. Always: the Spark-free unit tests. With BUCKETLINT_SPARK=local:
# create the venvs (oracle/setup.sh) and re-run a deterministic sample of scenarios live per
# pinned version, diffing against the committed fixtures (exit 1 on any difference).
#   BUCKETLINT_ORACLE_SAMPLE         scenarios per ci=full series (default 25; "all" for a full check)
#   BUCKETLINT_ORACLE_SAMPLE_OTHERS  scenarios per other series, among those recorded (default 3;
#                                    "all" for every recorded one; 0 skips those series)
#   BUCKETLINT_ORACLE_SEED           sample seed (default: day of year, so CI rotates through all)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
venv_dir="${BUCKETLINT_VENV_DIR:-$HOME/.cache/bucketlint}"
py=python3
if ! python3 -c 'import yaml, pytest' 2>/dev/null; then
  # No PyYAML/pytest on this Python: use the first ci=full venv (created by setup.sh).
  tool=$(awk '!/^#/ && /ci=full/ {print $1; exit}' oracle/versions.txt)
  bash oracle/setup.sh "$tool"
  py="$venv_dir/venv-$(awk -v s="$tool" '$1 == s {print $2}' oracle/versions.txt)/bin/python"
fi
"$py" -m pytest -q oracle/tests
if [[ "${BUCKETLINT_SPARK:-}" != "local" ]]; then
  echo "oracle: live Spark check skipped (set BUCKETLINT_SPARK=local to run it)"
  exit 0
fi
bash oracle/setup.sh
sample="${BUCKETLINT_ORACLE_SAMPLE:-25}"
others="${BUCKETLINT_ORACLE_SAMPLE_OTHERS:-3}"
seed="${BUCKETLINT_ORACLE_SEED:-$(date -u +%j | sed 's/^0*//')}"
status=0
while read -r series version opts; do
  [[ -z "$series" || "$series" == \#* ]] && continue
  args=(--spark "$series" oracle/scenarios/ "fixtures/spark/$series/")
  if [[ " $opts " == *" ci=full "* ]]; then
    [[ "$sample" != "all" ]] && args+=(--sample "$sample" --sample-seed "$seed")
  else
    [[ "$others" == 0 ]] && continue
    if [[ ! -x "$venv_dir/venv-$version/bin/python" ]]; then
      echo "oracle: Spark $series skipped: setup.sh could not create venv-$version (see its message above)"
      continue
    fi
    if [[ ! -d "fixtures/spark/$series" ]]; then
      echo "oracle: Spark $series skipped: nothing recorded under fixtures/spark/$series/"
      continue
    fi
    args+=(--recorded-only)
    [[ "$others" != "all" ]] && args+=(--sample "$others" --sample-seed "$seed")
  fi
  echo "oracle: check Spark $series ($version)"
  "$py" -m oracle check "${args[@]}" || status=1
done < oracle/versions.txt
exit "$status"
