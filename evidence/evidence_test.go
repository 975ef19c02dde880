package evidence

import (
	"fmt"
	"strings"
	"testing"
)

// TestRecordedCosts reads the recorded zstd logs (both Spark versions): the plain tables'
// join shuffles orders_p and customers_p on cust (one cost, both sides), and the plain
// aggregation shuffles orders_p on cust; the bucketed tables shuffle nothing.
func TestRecordedCosts(t *testing.T) {
	for _, series := range []string{"3.5", "4.3"} {
		t.Run(series, func(t *testing.T) {
			ev, err := Read(t.Context(), "../fixtures/eventlog/"+series+"/zstd")
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range ev.Costs() {
				if c.Bytes <= 0 || c.Records <= 0 || c.TimeNs <= 0 || c.Runs != 1 || c.Apps != 1 {
					t.Errorf("%s: figures %+v", c.Key(), c)
				}
				got = append(got, fmt.Sprintf("%s %s partner=%q", c.Key(), c.Consumer, c.Partner))
			}
			want := []string{
				`spark_catalog.default.customers_p (cust) join partner="spark_catalog.default.orders_p (cust)"`,
				`spark_catalog.default.orders_p (cust) aggregate partner=""`,
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("costs:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			if ev.Unpaired != 0 || ev.Apps != 1 {
				t.Errorf("unpaired %d, apps %d", ev.Unpaired, ev.Apps)
			}
		})
	}
}
