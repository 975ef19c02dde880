package sql

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/bucketlint/bucketlint/parser/perr"
	"github.com/bucketlint/bucketlint/plan"
)

// describeJSONDoc is the part of DESCRIBE … AS JSON (Spark 4.0+, SPARK-50541) bucketlint
// reads.
type describeJSONDoc struct {
	TableName   string   `json:"table_name"`
	CatalogName string   `json:"catalog_name"`
	Namespace   []string `json:"namespace"`
	Columns     []struct {
		Name string `json:"name"`
		Type struct {
			Name string `json:"name"`
		} `json:"type"`
		Comment string `json:"comment"`
	} `json:"columns"`
	NumBuckets       *int     `json:"num_buckets"`
	BucketColumns    []string `json:"bucket_columns"`
	SortColumns      []string `json:"sort_columns"`
	Location         string   `json:"location"`
	Provider         string   `json:"provider"`
	SerdeLibrary     string   `json:"serde_library"`
	InputFormat      string   `json:"input_format"`
	PartitionColumns []string `json:"partition_columns"`
	ClusteringInfo   []struct {
		Name string `json:"name"`
	} `json:"clustering_information"`
	Statistics struct {
		SizeInBytes *int64 `json:"size_in_bytes"`
		NumRows     *int64 `json:"num_rows"`
	} `json:"statistics"`
}

// describeJSON reads the JSON object of DESCRIBE … AS JSON.
func describeJSON(file string, src []byte) (*plan.Table, perr.List) {
	var errs perr.List
	var d describeJSONDoc
	dec := json.NewDecoder(bytes.NewReader(src))
	if err := dec.Decode(&d); err != nil {
		pos := plan.Pos{File: file, Line: 1, Col: 1}
		var se *json.SyntaxError
		if ok := asSyntax(err, &se); ok {
			lines := newLineIndex(file, string(src))
			pos = lines.pos(int(se.Offset))
		}
		errs.Add(pos, "describe as json: %v", err)
		return nil, errs
	}
	parts := append(append([]string{}, d.Namespace...), d.TableName)
	t := &plan.Table{
		Name:             scopeName(lower(parts), ""),
		Format:           strings.ToLower(d.Provider),
		Location:         d.Location,
		PartitionColumns: lower(d.PartitionColumns),
		SizeInBytes:      -1,
		RowCount:         -1,
		Sources:          []plan.Pos{{File: file, Line: 1, Col: 1}},
	}
	t.Hive = t.Format == "hive"
	if t.Hive {
		t.HiveFormat = hiveFormatOfDescribe(d.SerdeLibrary, d.InputFormat)
	}
	for _, c := range d.Columns {
		t.Columns = append(t.Columns, plan.Column{Name: strings.ToLower(c.Name), Type: plan.CanonicalType(c.Type.Name), Comment: c.Comment})
	}
	var spec *plan.BucketSpec
	if d.NumBuckets != nil {
		spec = &plan.BucketSpec{NumBuckets: *d.NumBuckets, Columns: lower(d.BucketColumns), SortColumns: lower(d.SortColumns)}
	}
	var cluster []string
	for _, c := range d.ClusteringInfo {
		cluster = append(cluster, strings.ToLower(c.Name))
	}
	t.Layout = plan.ComposeLayout(t.Format, t.Hive, spec, nil, cluster)
	if d.Statistics.SizeInBytes != nil {
		t.SizeInBytes = *d.Statistics.SizeInBytes
	}
	if d.Statistics.NumRows != nil {
		t.RowCount = *d.Statistics.NumRows
	}
	return t, errs
}

func asSyntax(err error, target **json.SyntaxError) bool {
	se, ok := err.(*json.SyntaxError) //nolint:errorlint // Decode returns it unwrapped
	if ok {
		*target = se
	}
	return ok
}

func lower(ss []string) []string {
	if ss == nil {
		return nil
	}
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = strings.ToLower(s)
	}
	return out
}
