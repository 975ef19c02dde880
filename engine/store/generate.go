//go:build engine

package store

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"

	"github.com/bucketlint/bucketlint/engine/hash"
)

// A GenColumn describes one generated column.
type GenColumn struct {
	Name string
	Type hash.Type
	// Cardinality is the number of distinct values; 0 means as many as rows.
	Cardinality int
	// Zipf, when > 1, skews the values: value rank k is drawn with weight 1/k^Zipf.
	Zipf float64
	// NullFraction is the share of NULL rows, 0 to 1.
	NullFraction float64
}

// A GenSpec describes generated data.
type GenSpec struct {
	Rows    int
	Columns []GenColumn
	Seed    uint64
}

// Schema returns the generated columns' schema.
func (g GenSpec) Schema() Schema {
	s := make(Schema, len(g.Columns))
	for i, c := range g.Columns {
		s[i] = Column{Name: c.Name, Type: c.Type}
	}
	return s
}

// Generate produces the rows of g, deterministically for a seed. Values are drawn as ranks
// 0..Cardinality-1 (uniform or Zipf) and mapped to the type: integers are the rank (modulo
// the type's range), strings "v<rank>", dates and timestamps days or seconds after
// 2020-01-01, doubles rank/4.
func Generate(g GenSpec) (*Batch, error) { return GenerateContext(context.Background(), g) }

// GenerateContext is Generate that stops early, with ctx's error, once ctx ends: generating
// tens of millions of rows takes seconds, and an interrupted verify should not wait for them.
func GenerateContext(ctx context.Context, g GenSpec) (*Batch, error) {
	s := g.Schema()
	for _, c := range s {
		if _, err := KindOf(c.Type); err != nil {
			return nil, fmt.Errorf("generate column %s: %w", c.Name, err)
		}
	}
	b := NewBatch(s.Types(), g.Rows)
	// Every column draws from its own stream, so the columns are generated at once.
	parallel(len(g.Columns), 0, func(i int) {
		generateColumn(ctx, b.Cols[i], g.Columns[i], g.Rows, rand.New(rand.NewPCG(g.Seed, uint64(i)+1)))
	})
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("generate: %w", context.Cause(ctx))
	}
	b.Len = g.Rows
	return b, nil
}

// generateColumn appends rows values of column c drawn from rng to v; it stops early, leaving
// v short, once ctx ends.
func generateColumn(ctx context.Context, v *Vec, c GenColumn, rows int, rng *rand.Rand) {
	card := c.Cardinality
	if card <= 0 {
		card = max(rows, 1)
	}
	var zipf *rand.Zipf
	if c.Zipf > 1 {
		zipf = rand.NewZipf(rng, c.Zipf, 1, uint64(card-1))
	}
	var buf []byte
	var limit hash.Int128 // 10^precision of a wide decimal
	if v.Kind == KindInt128 {
		limit = hash.Pow10Int128(c.Type.Precision)
	}
	for i := range rows {
		if i&(1<<16-1) == 0 && ctx.Err() != nil {
			return
		}
		if c.NullFraction > 0 && rng.Float64() < c.NullFraction {
			v.AppendNull()
			continue
		}
		var rank int64
		if zipf != nil {
			rank = int64(zipf.Uint64())
		} else {
			rank = rng.Int64N(int64(card))
		}
		switch v.Kind {
		case KindInt64:
			v.AppendInt(intValue(c.Type, rank))
		case KindFloat64:
			v.AppendFloat(float64(rank) / 4)
		case KindBytes:
			buf = strconv.AppendInt(append(buf[:0], 'v'), rank, 10)
			v.AppendBytes(buf)
		case KindInt128:
			v.AppendWide(wideValue(limit, rank))
		}
	}
}

// wideValue maps a rank to the unscaled value of a decimal wider than 18 digits whose
// unscaled values stay below limit (10^precision): the rank with its digits repeated above
// the 18th (rank*(10^18+1), or the rank when that does not fit), so values use the high
// word, and odd ranks negative, so both signs are covered.
func wideValue(limit hash.Int128, rank int64) hash.Int128 {
	x, _ := hash.Int128Of(rank).MulSmall(1e18)
	x, _ = x.Add(hash.Int128Of(rank))
	if !x.FitsDigits(limit) {
		x = hash.Int128Of(rank)
	}
	if rank&1 == 1 {
		x = x.Neg()
	}
	return x
}

// intValue maps a rank to an integer-like value of type t.
func intValue(t hash.Type, rank int64) int64 {
	const day2020 = 18262 // 2020-01-01 in days since the epoch
	switch t.Kind {
	case hash.KindBoolean:
		return rank & 1
	case hash.KindTinyInt:
		return rank%256 - 128
	case hash.KindSmallInt:
		return rank%65536 - 32768
	case hash.KindInt:
		return rank % math.MaxInt32
	case hash.KindDate:
		return day2020 + rank%40000
	case hash.KindTimestamp, hash.KindTimestampNTZ:
		return (day2020*86400 + rank) * 1_000_000
	case hash.KindDecimal:
		limit := int64(math.Pow10(t.Precision))
		return rank % limit
	}
	return rank
}
