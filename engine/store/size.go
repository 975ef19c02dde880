//go:build engine

package store

// estimateSample is the number of rows EstimateBytes generates to measure a row's size.
const estimateSample = 4096

// EstimateBytes returns about how many bytes of memory Generate(g) will hold, without
// generating it all: the size of a sample of the rows, scaled to g.Rows.
func (g GenSpec) EstimateBytes() (int64, error) {
	sample := g
	sample.Rows = min(g.Rows, estimateSample)
	// Draw the sample's values from the full-size spec's ranges, so strings have the length
	// they will have: a cardinality of 0 means one value per row of the whole table.
	cols := make([]GenColumn, len(g.Columns))
	for i, c := range g.Columns {
		if c.Cardinality <= 0 {
			c.Cardinality = max(g.Rows, 1)
		}
		cols[i] = c
	}
	sample.Columns = cols
	b, err := Generate(sample)
	if err != nil {
		return 0, err
	}
	if sample.Rows == 0 {
		return 0, nil
	}
	return b.MemBytes() * int64(g.Rows) / int64(sample.Rows), nil
}
