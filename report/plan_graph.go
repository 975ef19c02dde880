package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// graph is a plan flattened into nodes and edges for drawing. Edges point the way rows flow:
// from a child to its parent.
type graph struct {
	clusters []cluster
	edges    [][2]string
}

type cluster struct {
	title string
	nodes []gnode
}

type gnode struct {
	id, label string
	kind      string // "shuffle", "broadcast", "bucketed", "scan" or ""
}

func buildGraph(explains []*plan.Explain) graph {
	var g graph
	count := 0
	for ei, e := range explains {
		for _, s := range e.Plans {
			title := s.Name
			if len(explains) > 1 {
				title = fmt.Sprintf("%s (explain %d, line %d)", s.Name, ei+1, e.Pos.Line)
			}
			c := cluster{title: title}
			var add func(n plan.Node, ancestors []plan.Node) string
			add = func(n plan.Node, ancestors []plan.Node) string {
				count++
				id := "n" + strconv.Itoa(count)
				gn := gnode{id: id, label: headline(n)}
				switch x := n.(type) {
				case *plan.Exchange:
					gn.kind = "shuffle"
					gn.label += "\n" + strings.ReplaceAll(newShuffle(x, ancestors).Reason, "; ", "\n")
				case *plan.BroadcastExchange:
					gn.kind = "broadcast"
				case *plan.FileScan:
					gn.kind = "scan"
					if isBucketedScan(x) {
						gn.kind = "bucketed"
					}
				case *plan.HiveTableScan, *plan.BatchScan, *plan.InMemoryTableScan, *plan.LocalTableScan:
					gn.kind = "scan"
				}
				c.nodes = append(c.nodes, gn)
				next := withParent(ancestors, n)
				for _, k := range n.Children() {
					g.edges = append(g.edges, [2]string{add(k, next), id})
				}
				return id
			}
			add(s.Root, nil)
			g.clusters = append(g.clusters, c)
		}
	}
	return g
}

// PlanMermaid writes the plans as a Mermaid flowchart, rows flowing upwards, shuffles in red,
// broadcasts in blue and bucketed scans in green: ready for a pull-request comment.
func PlanMermaid(w io.Writer, explains []*plan.Explain) error {
	g := buildGraph(explains)
	b := newPlanBuf(w)
	b.put("flowchart BT\n")
	for i, c := range g.clusters {
		b.put("  subgraph s" + strconv.Itoa(i+1) + "[\"")
		_, _ = mermaidEscaper.WriteString(b, c.title)
		b.put("\"]\n")
		for _, n := range c.nodes {
			b.put("    " + n.id + "[\"")
			_, _ = mermaidEscaper.WriteString(b, n.label)
			b.put("\"]")
			if n.kind != "" {
				b.put(":::" + n.kind)
			}
			b.put("\n")
		}
		b.put("  end\n")
	}
	for _, e := range g.edges {
		b.put("  " + e[0] + " --> " + e[1] + "\n")
	}
	b.put("  classDef shuffle fill:#fde2e1,stroke:#c62828,stroke-width:2px,color:#000\n")
	b.put("  classDef broadcast fill:#e3f2fd,stroke:#1565c0,color:#000\n")
	b.put("  classDef bucketed fill:#e8f5e9,stroke:#2e7d32,stroke-width:2px,color:#000\n")
	b.put("  classDef scan fill:#f5f5f5,stroke:#757575,color:#000\n")
	return b.Flush()
}

// mermaidEscaper and dotEscaper are built once: a Replacer builds its tables on first use,
// which cost more than the replacing when a Replacer was made per label.
var (
	mermaidEscaper = strings.NewReplacer(`"`, "#quot;", "<", "#lt;", ">", "#gt;", "\n", "<br/>") //nolint:gochecknoglobals // never written; safe for concurrent use
	dotEscaper     = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)                       //nolint:gochecknoglobals // never written; safe for concurrent use
)

// PlanDot writes the plans as a Graphviz digraph with the same colours as PlanMermaid.
func PlanDot(w io.Writer, explains []*plan.Explain) error {
	g := buildGraph(explains)
	b := newPlanBuf(w)
	b.put("digraph plan {\n  rankdir=BT;\n  node [shape=box, style=\"rounded,filled\", fillcolor=\"#ffffff\", fontname=\"Helvetica\", fontsize=10];\n")
	styles := map[string]string{
		"shuffle":   `fillcolor="#fde2e1", color="#c62828", penwidth=2`,
		"broadcast": `fillcolor="#e3f2fd", color="#1565c0"`,
		"bucketed":  `fillcolor="#e8f5e9", color="#2e7d32", penwidth=2`,
		"scan":      `fillcolor="#f5f5f5", color="#757575"`,
	}
	for i, c := range g.clusters {
		b.put("  subgraph cluster_" + strconv.Itoa(i+1) + " {\n    label=")
		writeDotQuoted(b, c.title)
		b.put(";\n")
		for _, n := range c.nodes {
			b.put("    " + n.id + " [label=")
			writeDotQuoted(b, n.label)
			if st := styles[n.kind]; st != "" {
				b.put(", " + st)
			}
			b.put("];\n")
		}
		b.put("  }\n")
	}
	for _, e := range g.edges {
		b.put("  " + e[0] + " -> " + e[1] + ";\n")
	}
	b.put("}\n")
	return b.Flush()
}

// writeDotQuoted writes s as a quoted DOT string.
func writeDotQuoted(b planBuf, s string) {
	b.put(`"`)
	_, _ = dotEscaper.WriteString(b, s)
	b.put(`"`)
}
