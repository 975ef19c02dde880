"""SparkSession creation and per-scenario isolation (needs pyspark)."""
from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

# JVM-global counters reset at the start of every scenario so that expression ids
# (`k#12`), plan ids (`[plan_id=3]`) and CTE ids are a function of the scenario alone.
ID_COUNTERS = [
    ("org.apache.spark.sql.catalyst.expressions.NamedExpression$", "curId"),
    ("org.apache.spark.sql.execution.SparkPlan$", "nextPlanId"),
    ("org.apache.spark.sql.catalyst.plans.logical.CTERelationDef$", "curId"),
    ("org.apache.spark.sql.execution.exchange.Exchange$", "nextPlanId"),
]


class Workspace:
    """Temp folders of one oracle run; their paths are replaced by tokens in every output."""

    def __init__(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="bucketlint-oracle-")).resolve()
        self.warehouse = self.root / "warehouse"
        self.tmp = self.root / "tmp"
        self.metastore = self.root / "metastore"
        for p in (self.warehouse, self.tmp):
            p.mkdir(parents=True, exist_ok=True)

    def replacements(self) -> dict[str, str]:
        """Path -> token, for normalize_text."""
        return {str(self.warehouse): "{warehouse}", str(self.tmp): "{tmp}",
                str(self.metastore): "{metastore}", str(self.root): "{root}"}


def build(ws: Workspace, kind: str = "in-memory", extra: dict[str, str] | None = None) -> Any:
    """A local[2] SparkSession with production defaults; `kind` is in-memory or hive; `extra` confs are
    set on the context (the event-log recorder's `spark.eventLog.*`)."""
    os.environ.setdefault("PYSPARK_PYTHON", os.sys.executable)
    from pyspark.sql import SparkSession

    b = (SparkSession.builder.master("local[2]").appName("bucketlint-oracle")
         .config("spark.ui.enabled", "false")
         .config("spark.ui.showConsoleProgress", "false")
         .config("spark.sql.warehouse.dir", str(ws.warehouse))
         .config("spark.driver.extraJavaOptions", "-Dderby.stream.error.file=/dev/null")
         .config("spark.sql.session.timeZone", "UTC"))
    for k, v in (extra or {}).items():
        b = b.config(k, v)
    if kind == "iceberg":
        b = iceberg_config(b, ws)
    if kind == "hive":
        b = (b.config("spark.sql.catalogImplementation", "hive")
             .config("spark.hadoop.javax.jdo.option.ConnectionURL",
                     f"jdbc:derby:;databaseName={ws.metastore};create=true")
             .config("spark.hadoop.hive.metastore.warehouse.dir", str(ws.warehouse))
             .enableHiveSupport())
    else:
        b = b.config("spark.sql.catalogImplementation", "in-memory")
    spark = b.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    spark._jvm.java.lang.System.setProperty("derby.stream.error.file", "/dev/null")
    return spark


def iceberg_config(b: Any, ws: Workspace) -> Any:
    """Iceberg's SparkSessionCatalog as spark_catalog over a Hadoop catalog in the workspace, with
    Iceberg's SQL extensions, from the iceberg-spark-runtime jar pinned for this Spark series."""
    import pyspark  # noqa: PLC0415

    from oracle import versions  # noqa: PLC0415

    series, _ = versions.resolve(pyspark.__version__)
    jar = versions.iceberg_jar(series)
    if jar is None or not jar.exists():
        raise SystemExit(f"Spark {series}: no iceberg-spark-runtime jar pinned or fetched ({jar}); "
                         "see `iceberg=` in oracle/versions.txt and oracle/setup.sh")
    return (b.config("spark.jars", str(jar))
            .config("spark.sql.extensions", "org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions")
            .config("spark.sql.catalog.spark_catalog", "org.apache.iceberg.spark.SparkSessionCatalog")
            .config("spark.sql.catalog.spark_catalog.type", "hadoop")
            .config("spark.sql.catalog.spark_catalog.warehouse", str(ws.root / "iceberg")))


def stop(spark: Any) -> None:
    """Stop the SparkContext so that a session of another kind can start in this process."""
    from pyspark.sql import SparkSession

    spark.stop()
    SparkSession._instantiatedSession = None  # type: ignore[attr-defined]
    SparkSession._activeSession = None  # type: ignore[attr-defined]


RESET_SCRIPT = """
String[] names = new String[] {%s};
int done = 0;
for (int i = 0; i < names.length; i += 2) {
  try {
    Class c = Class.forName(names[i]);
    java.lang.reflect.Field f = c.getDeclaredField(names[i + 1]);
    f.setAccessible(true);
    Object o = f.get(c.getField("MODULE$").get(null));
    if (o instanceof java.util.concurrent.atomic.AtomicLong) {
      ((java.util.concurrent.atomic.AtomicLong) o).set(0L); done++;
    } else if (o instanceof java.util.concurrent.atomic.AtomicInteger) {
      ((java.util.concurrent.atomic.AtomicInteger) o).set(0); done++;
    }
  } catch (Exception e) { }
}
return done;
"""


def reset_ids(spark: Any) -> int:
    """Reset the JVM-global id counters (see ID_COUNTERS); returns how many exist.

    py4j converts AtomicLong values to Python ints, so the reset runs as a small Java
    script compiled in the JVM by Janino (which Spark ships for code generation).
    """
    jvm = spark._jvm
    names = ", ".join(f'"{c}", "{f}"' for c, f in ID_COUNTERS)
    se = jvm.org.codehaus.janino.ScriptEvaluator()
    se.setReturnType(jvm.java.lang.Integer.TYPE)
    se.cook(RESET_SCRIPT % names)
    return int(se.evaluate(None))


def fresh(root: Any, confs: dict[str, str]) -> Any:
    """A new session sharing the SparkContext, with an empty default database and `confs` set."""
    for t in root.catalog.listTables("default"):
        kind = "VIEW" if t.tableType == "VIEW" else "TABLE"
        root.sql(f"DROP {kind} IF EXISTS default.`{t.name}`")
    root.catalog.clearCache()
    s = root.newSession()
    for k, v in confs.items():
        s.conf.set(k, v)
    reset_ids(s)
    return s
