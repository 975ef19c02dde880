package code

import "testing"

func TestTestSource(t *testing.T) {
	for _, c := range []struct {
		file string
		want bool
	}{
		{"sql/core/src/test/scala/org/apache/spark/sql/sources/BucketedReadSuite.scala", true},
		{"backends/src/test/java/org/x/WriteIT.java", true}, // under src/test
		{"tests/helpers.py", true},
		{"integration_tests/src/main/python/join_test.py", true},
		{"pkg/test_join.py", true},
		{"jobs\\nightly\\test\\load.py", true}, // Windows separators
		{"src/main/scala/com/x/LoaderSpec.scala", true},
		{"src/main/java/com/x/WriterTests.java", true},
		{"src/main/java/com/x/JoinTest.java", true},
		{"examples/src/main/python/sql/datasource.py", false},
		{"examples/src/main/scala/org/apache/spark/examples/sql/SQLDataSourceExample.scala", false},
		{"jobs/latest.py", false},       // "test" inside a word is not a test name
		{"jobs/contest_load.py", false}, // nor a prefix that is not test_
		{"jobs/Test.scala", false},      // the suffix alone is no class-name convention
		{"integration_tests/load.py", false},
		{"testing/load.py", false},
		{"notebooks/test_run.ipynb", false},
	} {
		if got := TestSource(c.file); got != c.want {
			t.Errorf("TestSource(%q) = %v, want %v", c.file, got, c.want)
		}
	}
}
