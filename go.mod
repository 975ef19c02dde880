module github.com/bucketlint/bucketlint

go 1.26.8

require (
	github.com/alecthomas/participle/v2 v2.1.4
	go.yaml.in/yaml/v3 v3.0.6
	golang.org/x/tools v0.52.0
)
