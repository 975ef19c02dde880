package hash

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// A Kind is a Spark SQL data type without its parameters.
type Kind uint8

// The Spark SQL types a bucket column can have. The zero Kind is invalid.
const (
	KindInvalid      Kind = iota
	KindBoolean           // boolean
	KindTinyInt           // tinyint (byte)
	KindSmallInt          // smallint (short)
	KindInt               // int (integer)
	KindBigInt            // bigint (long)
	KindFloat             // float (real)
	KindDouble            // double
	KindDecimal           // decimal(p,s)
	KindString            // string, char(n), varchar(n)
	KindBinary            // binary
	KindDate              // date: days since 1970-01-01
	KindTimestamp         // timestamp (timestamp_ltz): microseconds since the epoch, UTC
	KindTimestampNTZ      // timestamp_ntz: microseconds of the wall-clock time read as UTC
	KindArray             // array<T>
)

// MaxDecimalPrecision is the largest precision of Spark's DecimalType.
const MaxDecimalPrecision = 38

// MaxLongDigits is Spark's Decimal.MAX_LONG_DIGITS: decimals of at most this precision are
// hashed as their unscaled long value, wider ones by their unscaled bytes.
const MaxLongDigits = 18

// A Type is a Spark SQL data type as far as hashing is concerned.
type Type struct {
	Kind Kind
	// Precision and Scale are set for KindDecimal: 1 <= Precision <= 38, 0 <= Scale <= Precision.
	Precision, Scale int
	// Length is n for char(n) and varchar(n), 0 for string and every other kind. Spark pads
	// char(n) values with spaces to n characters before storing (and hashing) them.
	Length int
	// Char is true for char(n).
	Char bool
	// Elem is the element type of KindArray.
	Elem *Type
}

// DecimalType returns decimal(p,s).
func DecimalType(p, s int) Type { return Type{Kind: KindDecimal, Precision: p, Scale: s} }

// ArrayType returns array<elem>.
func ArrayType(elem Type) Type { return Type{Kind: KindArray, Elem: &elem} }

// String returns the kind's Spark SQL name, e.g. "bigint".
func (k Kind) String() string {
	switch k {
	case KindBoolean:
		return "boolean"
	case KindTinyInt:
		return "tinyint"
	case KindSmallInt:
		return "smallint"
	case KindInt:
		return "int"
	case KindBigInt:
		return "bigint"
	case KindFloat:
		return "float"
	case KindDouble:
		return "double"
	case KindDecimal:
		return "decimal"
	case KindString:
		return "string"
	case KindBinary:
		return "binary"
	case KindDate:
		return "date"
	case KindTimestamp:
		return "timestamp"
	case KindTimestampNTZ:
		return "timestamp_ntz"
	case KindArray:
		return "array"
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// String returns the type as Spark SQL writes it, e.g. "decimal(10,2)" or "array<int>".
func (t Type) String() string {
	switch {
	case t.Kind == KindDecimal:
		return fmt.Sprintf("decimal(%d,%d)", t.Precision, t.Scale)
	case t.Kind == KindString && t.Length > 0 && t.Char:
		return fmt.Sprintf("char(%d)", t.Length)
	case t.Kind == KindString && t.Length > 0:
		return fmt.Sprintf("varchar(%d)", t.Length)
	case t.Kind == KindArray && t.Elem != nil:
		return "array<" + t.Elem.String() + ">"
	}
	return t.Kind.String()
}

// simpleKind maps the parameterless Spark SQL type names and their aliases to kinds.
func simpleKind(name string) Kind {
	switch name {
	case "boolean", "bool":
		return KindBoolean
	case "tinyint", "byte":
		return KindTinyInt
	case "smallint", "short":
		return KindSmallInt
	case "int", "integer":
		return KindInt
	case "bigint", "long":
		return KindBigInt
	case "float", "real":
		return KindFloat
	case "double":
		return KindDouble
	case "string":
		return KindString
	case "binary":
		return KindBinary
	case "date":
		return KindDate
	case "timestamp", "timestamp_ltz":
		return KindTimestamp
	case "timestamp_ntz":
		return KindTimestampNTZ
	}
	return KindInvalid
}

// maxArrayDepth bounds array<array<…>> nesting in ParseType, which recurses per level.
const maxArrayDepth = 100

// ParseType parses a Spark SQL type name as DDL and explain output write it: "int",
// "BIGINT", "decimal(10,2)", "decimal" (= decimal(10,0), Spark's default), "char(5)",
// "varchar(20)", "timestamp_ntz", "array<int>". Aliases Spark accepts (integer, long, short,
// byte, real, dec, numeric) are accepted too.
func ParseType(s string) (Type, error) {
	t, err := parseType(strings.ToLower(strings.TrimSpace(s)))
	if err != nil {
		return Type{}, fmt.Errorf("type %q: %w", s, err)
	}
	return t, nil
}

func parseType(s string) (Type, error) {
	if s == "" {
		return Type{}, errors.New("empty type")
	}
	if k := simpleKind(s); k != KindInvalid {
		return Type{Kind: k}, nil
	}
	if inner, ok := cutEnclosed(s, "array", '<', '>'); ok {
		if strings.Count(inner, "array") >= maxArrayDepth {
			return Type{}, fmt.Errorf("arrays nested more than %d deep", maxArrayDepth)
		}
		elem, err := parseType(inner)
		if err != nil {
			return Type{}, err
		}
		return ArrayType(elem), nil
	}
	for _, name := range []string{"decimal", "dec", "numeric"} {
		if s == name {
			return DecimalType(10, 0), nil
		}
		if inner, ok := cutEnclosed(s, name, '(', ')'); ok {
			return parseDecimalParams(inner)
		}
	}
	for _, name := range []string{"char", "character", "varchar"} {
		if inner, ok := cutEnclosed(s, name, '(', ')'); ok {
			n, err := strconv.Atoi(strings.TrimSpace(inner))
			if err != nil || n < 1 {
				return Type{}, fmt.Errorf("%s length must be a positive integer", name)
			}
			return Type{Kind: KindString, Length: n, Char: name != "varchar"}, nil
		}
	}
	return Type{}, errors.New("not a bucketable Spark SQL type")
}

// cutEnclosed returns x from "name<open>x<close>", allowing spaces before <open>.
func cutEnclosed(s, name string, open, closing byte) (string, bool) {
	rest, ok := strings.CutPrefix(s, name)
	if !ok {
		return "", false
	}
	rest = strings.TrimSpace(rest)
	if len(rest) < 2 || rest[0] != open || rest[len(rest)-1] != closing {
		return "", false
	}
	return rest[1 : len(rest)-1], true
}

func parseDecimalParams(inner string) (Type, error) {
	ps, ss, hasScale := strings.Cut(inner, ",")
	p, err := strconv.Atoi(strings.TrimSpace(ps))
	if err != nil {
		return Type{}, errors.New("decimal precision must be an integer")
	}
	s := 0
	if hasScale {
		if s, err = strconv.Atoi(strings.TrimSpace(ss)); err != nil {
			return Type{}, errors.New("decimal scale must be an integer")
		}
	}
	t := DecimalType(p, s)
	return t, t.validate()
}

// validate reports whether t is a type the package can hash.
func (t Type) validate() error {
	switch t.Kind {
	case KindInvalid:
		return errors.New("invalid type")
	case KindDecimal:
		if t.Precision < 1 || t.Precision > MaxDecimalPrecision {
			return fmt.Errorf("decimal precision %d is outside 1..%d", t.Precision, MaxDecimalPrecision)
		}
		if t.Scale < 0 || t.Scale > t.Precision {
			return fmt.Errorf("decimal scale %d is outside 0..%d", t.Scale, t.Precision)
		}
	case KindArray:
		if t.Elem == nil {
			return errors.New("array type without an element type")
		}
		return t.Elem.validate()
	default:
		if t.Kind > KindArray {
			return fmt.Errorf("unknown type kind %d", t.Kind)
		}
	}
	return nil
}
