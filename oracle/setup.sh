#!/usr/bin/env bash
# Creates one virtual environment per pinned PySpark version (oracle/versions.txt)
# under ${BUCKETLINT_VENV_DIR:-$HOME/.cache/bucketlint}/venv-<version>.
# Idempotent: a venv that already has the pinned pyspark is left alone.
# Usage: oracle/setup.sh [series ...]   (default: all pinned series)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
venv_root="${BUCKETLINT_VENV_DIR:-$HOME/.cache/bucketlint}"
python="${PYTHON:-python3}"
mkdir -p "$venv_root"
want=("$@")
while read -r series version; do
  [[ -z "${series}" || "${series}" == \#* ]] && continue
  if [[ ${#want[@]} -gt 0 && ! " ${want[*]} " =~ " ${series} " ]]; then continue; fi
  venv="$venv_root/venv-$version"
  if [[ -x "$venv/bin/python" ]] && \
     [[ "$("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("pyspark"))' 2>/dev/null || true)" == "$version" ]] && \
     "$venv/bin/python" -c 'import yaml' 2>/dev/null; then
    echo "venv-$version: up to date ($venv)"
    continue
  fi
  echo "venv-$version: installing pyspark==$version into $venv"
  "$python" -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
    "pyspark==$version" "pyyaml>=6" "pytest>=7"
  echo "venv-$version: done"
done < "$here/versions.txt"
