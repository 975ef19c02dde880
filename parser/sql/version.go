package sql

import (
	"fmt"
	"sort"
)

// Syntax that depends on the Spark version. The parser reads the newest grammar; every
// construct that an older release's SqlBaseParser.g4 lacks, or that a newer release stopped
// accepting, is recorded where it is read (a feature use) and checked against the configured
// version once the statement has parsed. The first release of each construct is a fact
// established against real Spark (oracle/syntaxcheck.py recordings under
// testdata/spark/<version>/syntax.json) or Spark's grammar history; docs/sql-versions.md lists
// each one with how it was established, and TestSyntaxVersions checks the table against every
// recording.

// A Version is a Spark release series (major.minor) whose syntax the parser accepts.
type Version struct {
	Major, Minor int
}

// String is "major.minor".
func (v Version) String() string { return fmt.Sprintf("%d.%d", v.Major, v.Minor) }

// IsZero reports whether v is unset.
func (v Version) IsZero() bool { return v.Major == 0 }

// Before reports whether v is an earlier release than w.
func (v Version) Before(w Version) bool {
	return v.Major < w.Major || v.Major == w.Major && v.Minor < w.Minor
}

// Options are what the parser reads besides the text: the Spark version whose syntax counts.
type Options struct {
	// Spark is the configured Spark version; the zero value reads the newest grammar (no
	// construct is too new, those later releases dropped are rejected).
	Spark Version
	// SparkDefault says the version is the default, not configured: the syntax of every
	// release is then accepted (refuses).
	SparkDefault bool
	// LegacyBangNot is spark.sql.legacy.bangEqualsNot set true in the configuration: ! may
	// stand for NOT before IN, BETWEEN, LIKE and NULL on 4.x too (a SET in a file sets it
	// for the statements after it).
	LegacyBangNot bool
	// devSnapshot reads the grammar of Spark's 4.1 development snapshot whose golden files
	// are Spark's SQL tests (../shared/spark-sqltests, read by TestSparkSQLTests), with Spark
	// 4.1: it differs from the 4.1 release (pyspark 4.1.4) where a feature's dev says so.
	devSnapshot bool
}

// WithOptions returns a parser that shares p's compiled grammar and reads with opts.
func (p *Parser) WithOptions(opts Options) *Parser {
	q := *p
	q.opts = opts
	return &q
}

// feature is a construct whose acceptance depends on the Spark version.
type feature uint8

const (
	featNone feature = iota
	featPipe
	featFromQuery
	featCollate
	featDefaultCollation
	featStarExcept
	featViewSchema
	featScripting
	featVariables
	featExecuteImmediate
	featQualify
	featClusterBy
	featReplaceUsing
	featVariant
	featTime
	featDoubleColon
	featShift
	featWithRecursive
	featDescribeJSON
	featSQLFunction
	featCall
	featIdentity
	featTableArgPartition
	featRelationOptions
	featWithinGroup
	featMergeSchemaEvolution
	featBangNot
	featNamedArgument
	featIdentifierName
	featLateralSubquery
	featOffset
	featUnpivot
	featColumnDefault
	featInsertByName
	featReplaceWhere
	featTimestampNTZ
	featIntervalType
	featParameter
	featPositionalParameter
	featPercentileWithinGroup
	featTryCast
	featILike
	featGeneratedColumn
	featTimeTravel
	featNullsAfterCall
	featMixedGroupingSets
	featRawString
	featNestedComment
	featJSONPath
	featWatermark
	featUnitString
	featTimediffUnitString
	featValuesWidth
	featIdentifierString
	featTempQualified
	featTempQualifiedIdentifier
	featExecuteText
	featIdentifierLite
	featPipeDropQualified
	featTrimCollation
	featIdentifierEmptyName
	featIntervalMixed
	featIntervalRange
	featDatetimeOverflow
	featIntervalSign
	featTransformAlias
	featLinesTerminated
	featWindowTwice
	featLikeAnyEmpty
	featFloatRange
	featSetText
	featResetKey
	featIntervalMinMonths
	featIntervalWideField
	featFloatFraction
	featIntervalNonASCII
	featLateralFunction
	featCount
)

// featureInfo is what the table says of a feature: what to call it, the first release that
// accepts it and, for syntax a release dropped, the first that rejects it.
type featureInfo struct {
	name         string
	since, until Version
	// instead is what to write instead, for a dropped construct.
	instead string
	// dev is how Spark's 4.1 development snapshot (Options.devSnapshot) departs from the
	// releases for this construct.
	dev devRule
	// from is, for a construct that needs since, the first release whose parser refuses it
	// before then: the releases before from read the text as something else they accept.
	from Version
}

// devRule is how Spark's 4.1 development snapshot departs from the releases.
type devRule uint8

const (
	// devRejects: the snapshot rejects the construct and no recorded release does (its check
	// did not ship). The zero devRule: the snapshot answers as the 4.1 release does.
	devRejects devRule = iota + 1
	// devLacks: the snapshot does not have the construct yet, the 4.1 release does.
	devLacks
)

// info returns the table entry of f. The versions are facts: see docs/sql-versions.md.
func (f feature) info() featureInfo {
	v4, v41, v42 := Version{4, 0}, Version{4, 1}, Version{4, 2}
	v3 := func(minor int) Version { return Version{3, minor} }
	switch f {
	case featPipe:
		return featureInfo{name: "pipe syntax |>", since: v4}
	case featFromQuery:
		return featureInfo{name: "a query of FROM alone (FROM t with no SELECT)", since: v4}
	case featCollate:
		return featureInfo{name: "COLLATE", since: v4}
	case featDefaultCollation:
		return featureInfo{name: "DEFAULT COLLATION of a table", since: v4}
	case featStarExcept:
		return featureInfo{name: "* EXCEPT (columns)", since: v4}
	case featViewSchema:
		return featureInfo{name: "WITH SCHEMA of a view", since: v4}
	case featScripting:
		return featureInfo{name: "SQL scripting (BEGIN … END; 4.0 has it only with spark.sql.scripting.enabled)", since: v41}
	case featVariables:
		return featureInfo{name: "session variables (DECLARE, SET VARIABLE)", since: v4}
	case featExecuteImmediate:
		return featureInfo{name: "EXECUTE IMMEDIATE", since: v4}
	case featQualify:
		return featureInfo{name: "QUALIFY", since: v42}
	case featClusterBy:
		return featureInfo{name: "CLUSTER BY of a table", since: v4}
	case featReplaceUsing:
		return featureInfo{name: "INSERT … REPLACE USING", since: v42}
	case featVariant:
		return featureInfo{name: "the VARIANT type", since: v4}
	case featTime:
		return featureInfo{name: "the TIME type", since: v41}
	case featDoubleColon:
		return featureInfo{name: "the :: cast", since: v4}
	case featShift:
		return featureInfo{name: "the shift operators <<, >>, >>>", since: v4}
	case featWithRecursive:
		return featureInfo{name: "WITH RECURSIVE", since: v4}
	case featDescribeJSON:
		return featureInfo{name: "DESCRIBE … AS JSON", since: v4}
	case featSQLFunction:
		return featureInfo{name: "a SQL function (CREATE FUNCTION f(…) RETURNS …)", since: v4}
	case featCall:
		return featureInfo{name: "CALL", since: v4}
	case featIdentity:
		return featureInfo{name: "an identity column (GENERATED … AS IDENTITY)", since: v4}
	case featTableArgPartition:
		return featureInfo{name: "a table argument's PARTITION BY", since: v4}
	case featRelationOptions:
		return featureInfo{name: "options of a table read (t WITH (…))", since: v4}
	case featWithinGroup:
		return featureInfo{name: "WITHIN GROUP for a function other than percentile_cont and percentile_disc", since: v4}
	case featMergeSchemaEvolution:
		return featureInfo{name: "MERGE WITH SCHEMA EVOLUTION", since: v4}
	case featNamedArgument:
		return featureInfo{name: "a named argument (name => value)", since: v3(5)}
	case featIdentifierName:
		return featureInfo{name: "IDENTIFIER(…) as the name of a table created or changed", since: v3(5)}
	case featLateralSubquery:
		return featureInfo{name: "a LATERAL subquery", since: v3(2)}
	case featOffset:
		return featureInfo{name: "OFFSET", since: v3(4)}
	case featUnpivot:
		return featureInfo{name: "UNPIVOT", since: v3(4)}
	case featColumnDefault:
		return featureInfo{name: "a column's DEFAULT value", since: v3(4)}
	case featInsertByName:
		return featureInfo{name: "INSERT … BY NAME", since: v3(5)}
	case featReplaceWhere:
		return featureInfo{name: "INSERT … REPLACE WHERE", since: v3(4)}
	case featTimestampNTZ:
		return featureInfo{name: "the TIMESTAMP_NTZ and TIMESTAMP_LTZ types", since: v3(4)}
	case featIntervalType:
		return featureInfo{name: "an ANSI interval type (INTERVAL YEAR TO MONTH, DAY TO SECOND, …)", since: v3(2)}
	case featParameter:
		return featureInfo{name: "a named parameter marker (:name)", since: v3(4)}
	case featPositionalParameter:
		return featureInfo{name: "a positional parameter marker (?)", since: v3(5)}
	case featPercentileWithinGroup:
		return featureInfo{name: "percentile_cont and percentile_disc … WITHIN GROUP", since: v3(3)}
	case featTryCast:
		return featureInfo{name: "TRY_CAST", since: v3(2)}
	case featILike:
		return featureInfo{name: "ILIKE", since: v3(3)}
	case featGeneratedColumn:
		return featureInfo{name: "a generated column (GENERATED ALWAYS AS (…))", since: v3(4)}
	case featTimeTravel:
		return featureInfo{name: "time travel (VERSION AS OF, TIMESTAMP AS OF)", since: v3(3)}
	case featNullsAfterCall:
		return featureInfo{name: "IGNORE NULLS or RESPECT NULLS after a function's arguments", since: v3(2)}
	case featMixedGroupingSets:
		return featureInfo{name: "GROUPING SETS, ROLLUP or CUBE next to other GROUP BY expressions", since: v3(2)}
	case featRawString:
		return featureInfo{name: "a raw string literal (r'…')", since: v3(3)}
	case featNestedComment:
		return featureInfo{name: "a /* comment */ nested in another", since: v3(1)}
	case featJSONPath:
		return featureInfo{name: "the : path into a VARIANT or JSON value (v:a.b)", since: v41}
	case featWatermark:
		return featureInfo{name: "WATERMARK … DELAY OF of a relation", since: v41}
	case featUnitString:
		return featureInfo{
			name: "a string as the unit of TIMESTAMPADD, DATEADD, TIMESTAMPDIFF or DATEDIFF", until: v3(5),
			instead: "write the unit as a keyword (YEAR, MONTH, DAY, …)",
		}
	case featTimediffUnitString:
		return featureInfo{
			name: "a string as the unit of TIMEDIFF", until: v4,
			instead: "write the unit as a keyword (YEAR, MONTH, DAY, …)",
		}
	case featValuesWidth:
		return featureInfo{
			name: "VALUES rows of different widths, or an alias naming another number of columns", until: v4,
			instead: "give every row, and the alias, the same number of columns",
		}
	case featIdentifierString:
		return featureInfo{
			name: "IDENTIFIER('…') of a string that is not a name", dev: devRejects,
			instead: "quote each part with backquotes",
		}
	case featTempQualified:
		return featureInfo{
			name: "a qualified name for a temporary view or function", until: v3(3),
			instead: "give it a one-part name",
		}
	case featTempQualifiedIdentifier:
		return featureInfo{
			name: "a qualified IDENTIFIER('…') name for a temporary view or function", dev: devRejects,
			instead: "give it a one-part name",
		}
	case featExecuteText:
		return featureInfo{
			name: "EXECUTE IMMEDIATE of a string that does not parse as a statement", dev: devRejects,
			instead: "correct the statement in the string",
		}
	case featIdentifierLite:
		return featureInfo{
			name:  "IDENTIFIER('…') where another name stands (a qualified name's part, a column list, USING, a field, a window or a CTE)",
			since: v41, dev: devLacks,
		}
	case featPipeDropQualified:
		return featureInfo{name: "a qualified column of |> DROP", since: v42}
	case featIdentifierEmptyName:
		return featureInfo{
			name: "IDENTIFIER('') naming a table or other object", until: v42,
			instead: "name it",
		}
	case featTrimCollation:
		return featureInfo{name: "a trimming collation (…_RTRIM)", since: v41}
	case featIntervalSign:
		return featureInfo{name: "a sign before the string of an interval literal (INTERVAL -'1' DAY)", since: v3(2)}
	case featIntervalMinMonths:
		return featureInfo{name: "INTERVAL '-178956970-8' YEAR TO MONTH (-2^31 months)", since: v3(2)}
	case featIntervalWideField:
		return featureInfo{name: "more than two digits of hours or minutes first in an interval (INTERVAL '100:00' HOUR TO MINUTE)", since: v3(2)}
	case featLateralFunction:
		return featureInfo{
			name:  "a function call after LATERAL past the first table of FROM (t, LATERAL f(a); 3.0 and 3.1 read it as the table LATERAL named f)",
			since: v3(4), from: v3(2),
		}
	case featFloatFraction:
		return featureInfo{name: "a FLOAT literal starting with its point (.5F)", since: v3(1)}
	case featIntervalNonASCII:
		return featureInfo{
			name: "an interval string that does not parse and holds characters other than ASCII (3.0 skipped them)", until: v3(1),
			instead: "write the interval in ASCII",
		}
	case featResetKey:
		return featureInfo{name: "RESET of one configuration key", since: v3(1)}
	case featIntervalMixed:
		return featureInfo{
			name: "an interval literal mixing year-month and day-time fields", until: v3(2),
			instead: "write two literals",
		}
	case featIntervalRange:
		return featureInfo{
			name: "a DAY TO … interval literal whose days are out of range", until: v3(2),
			instead: "keep the days within ±106751991",
		}
	case featDatetimeOverflow:
		return featureInfo{
			name: "a DATE or TIMESTAMP literal with a field of more than 32 bits (read wrapped around before 3.2)", until: v3(2),
			instead: "write the field in range",
		}
	case featTransformAlias:
		return featureInfo{
			name:  "an alias among TRANSFORM's inputs (TRANSFORM(a b), and TRANSFORM(DISTINCT a), read before 3.2 as a column DISTINCT named a)",
			until: v3(2), instead: "remove the alias",
		}
	case featLinesTerminated:
		return featureInfo{
			name: "LINES TERMINATED BY other than '\\n' in TRANSFORM's ROW FORMAT", until: v3(1),
			instead: "end lines with '\\n'",
		}
	case featWindowTwice:
		return featureInfo{name: "a window defined twice in WINDOW", until: v3(1), instead: "give each window its own name"}
	case featLikeAnyEmpty:
		return featureInfo{
			name: "LIKE ANY, ALL or SOME of an empty list (read before 3.1 as a call of a function ANY)", until: v3(1),
			instead: "give at least one pattern",
		}
	case featFloatRange:
		return featureInfo{name: "a FLOAT literal out of range (3.4028235E39F)", until: v3(1), instead: "write a DOUBLE"}
	case featSetText:
		return featureInfo{
			name: "SET of a key with a blank in it (SET a b = 1; 3.0 read any text after SET as a key and value)", until: v3(1),
			instead: "quote the key with backquotes",
		}
	case featBangNot:
		return featureInfo{
			name: "! for NOT before IN, BETWEEN, LIKE or NULL", until: v4,
			instead: "write NOT, or set spark.sql.legacy.bangEqualsNot",
		}
	}
	return featureInfo{}
}

// featUse is a feature read at an offset of the statement.
type featUse struct {
	off int
	f   feature
}

// use records that the statement uses feature f at offset off.
func (p *rd) use(f feature, off int) {
	p.uses = append(p.uses, featUse{off: off, f: f})
}

// versionError returns the first use (by position) the options do not allow, with its
// message, or ok false.
func (o Options) versionError(uses []featUse, legacyBang bool) (featUse, string, bool) {
	if len(uses) == 0 {
		return featUse{}, "", false
	}
	sorted := append([]featUse(nil), uses...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].off < sorted[j].off })
	for _, u := range sorted {
		if msg := o.refuses(u.f, legacyBang); msg != "" {
			return u, msg, true
		}
	}
	return featUse{}, "", false
}

// refuses returns why the configured version does not accept f, or "". A version that is
// only the default (none configured) refuses nothing: the file may be written for any
// release, and an input error on SQL that some Spark accepts would be a guess presented as a
// fact, so every release's syntax is read.
func (o Options) refuses(f feature, legacyBang bool) string {
	if o.SparkDefault {
		return ""
	}
	in := f.info()
	switch {
	case in.name == "":
		return ""
	case o.devSnapshot && in.dev == devRejects:
		return fmt.Sprintf("%s is not accepted by Spark's %s development snapshot: %s", in.name, o.Spark, in.instead)
	case o.devSnapshot && in.dev == devLacks:
		return fmt.Sprintf("%s is not in Spark's %s development snapshot", in.name, o.Spark)
	case !in.until.IsZero() && (!legacyBang || f != featBangNot) && (o.Spark.IsZero() || !o.Spark.Before(in.until)):
		if o.Spark.IsZero() {
			return fmt.Sprintf("%s is not accepted since Spark %s: %s", in.name, in.until, in.instead)
		}
		return fmt.Sprintf("%s is not accepted since Spark %s (configured: %s): %s", in.name, in.until, o.Spark, in.instead)
	case o.Spark.IsZero() || in.since.IsZero() || !o.Spark.Before(in.since) || o.Spark.Before(in.from):
		return ""
	}
	return fmt.Sprintf("%s needs Spark %s or later (configured: %s)", in.name, in.since, o.Spark)
}

// versionOK reports whether the configured version accepts every construct the statement in
// chunk c uses; if not, it records the error at the first one that it does not.
func (st *state) versionOK(c chunk, uses []featUse) bool {
	u, msg, bad := st.p.opts.versionError(uses, st.legacyBang)
	if !bad {
		return true
	}
	st.errs.Add(st.lines.pos(c.offset+u.off), "%s", msg)
	return false
}
