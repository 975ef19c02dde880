package sql

import (
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// lazySimpleSerDe is Hive's text serde: the serde of STORED AS TEXTFILE and SEQUENCEFILE, of
// ROW FORMAT DELIMITED, and of a Hive table that names no serde (hive.default.serde).
const lazySimpleSerDe = "org.apache.hadoop.hive.serde2.lazy.lazysimpleserde"

// storedSerde is the serde STORED AS format implies (Spark's HiveSerDe.serdeMap); "" for
// formats that take the default serde (TEXTFILE, SEQUENCEFILE).
func storedSerde(format string) string {
	switch format {
	case "parquet":
		return "org.apache.hadoop.hive.ql.io.parquet.serde.parquethiveserde"
	case "orc":
		return "org.apache.hadoop.hive.ql.io.orc.orcserde"
	case "avro":
		return "org.apache.hadoop.hive.serde2.avro.avroserde"
	case "rcfile":
		return "org.apache.hadoop.hive.serde2.columnar.lazybinarycolumnarserde"
	}
	return ""
}

// storedFormat normalises a STORED AS or fileFormat name as HiveSerDe.sourceToSerDe does.
func storedFormat(s string) string {
	s = strings.ToLower(strings.TrimPrefix(strings.ToLower(s), "org.apache.spark.sql."))
	switch s {
	case "orcfile":
		return "orc"
	case "parquetfile":
		return "parquet"
	case "avrofile":
		return "avro"
	}
	return s
}

// hiveStorage marks a Hive-serde table (STORED AS, ROW FORMAT, or USING hive) and records its
// storage. The serde decides, as in Spark's AstBuilder and HiveOptions: ROW FORMAT SERDE,
// else the serde of STORED AS or OPTIONS (fileFormat …, serde …), else the text serde.
// Recorded from Spark 3.5.9 and 4.3.0 (fixtures/spark/*/hive): STORED AS INPUTFORMAT …
// OUTPUTFORMAT … without a serde is a text-serde table Spark reads with HiveTableScan.
func hiveStorage(t *plan.Table, clauses []*createClause) {
	var serde, stored string
	hive := false
	for _, cl := range clauses {
		switch {
		case cl.Using != nil:
			hive = strings.EqualFold(cl.Using.plain(), "hive")
		case cl.RowFormat != nil:
			hive = true
			if cl.RowFormat.Serde != nil {
				serde = strings.ToLower(unquoteString(cl.RowFormat.Serde.Class))
			} else if serde == "" {
				serde = lazySimpleSerDe
			}
		case cl.Stored != nil:
			hive = true
			if cl.Stored.Format != "" {
				stored = storedFormat(cl.Stored.Format)
			}
		}
	}
	if !hive {
		return
	}
	for _, cl := range clauses {
		for _, p := range cl.Options {
			switch strings.ToLower(p.key()) {
			case "fileformat":
				stored = storedFormat(unquoteString(p.Value))
			case "serde":
				if serde == "" {
					serde = strings.ToLower(unquoteString(p.Value))
				}
			}
		}
	}
	if serde == "" {
		serde = storedSerde(stored)
	}
	if serde == "" {
		serde = lazySimpleSerDe
	}
	t.Hive, t.Format = true, "hive"
	t.HiveFormat = hiveFormatOf(serde, stored)
}

// hiveFormatOf names a Hive table's storage from its serde class (any case) and STORED AS
// format: "parquet" and "orc" exactly when Spark's RelationConversions would convert the
// table (the lower-cased serde contains "parquet" or "orc").
func hiveFormatOf(serde, stored string) string {
	serde = strings.ToLower(serde)
	switch {
	case strings.Contains(serde, "parquet"):
		return "parquet"
	case strings.Contains(serde, "orc"):
		return "orc"
	case stored != "" && stored != "parquet" && stored != "orc":
		return stored
	case serde == lazySimpleSerDe || serde == "":
		return "textfile"
	}
	return serde
}

// hiveFormatOfDescribe names a Hive table's storage from DESCRIBE's Serde Library and
// InputFormat rows; "" when neither is known.
func hiveFormatOfDescribe(serde, input string) string {
	if serde == "" {
		switch in := strings.ToLower(input); {
		case in == "":
			return ""
		case strings.Contains(in, "textinputformat"):
			return "textfile"
		case strings.Contains(in, "sequencefileinputformat"):
			return "sequencefile"
		}
		return ""
	}
	return hiveFormatOf(serde, "")
}
