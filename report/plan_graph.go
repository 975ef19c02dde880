package report

import (
	"fmt"
	"io"
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
				id := fmt.Sprintf("n%d", count)
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
	var b strings.Builder
	b.WriteString("flowchart BT\n")
	for i, c := range g.clusters {
		fmt.Fprintf(&b, "  subgraph s%d[\"%s\"]\n", i+1, mermaidEscape(c.title))
		for _, n := range c.nodes {
			fmt.Fprintf(&b, "    %s[\"%s\"]", n.id, mermaidEscape(n.label))
			if n.kind != "" {
				fmt.Fprintf(&b, ":::%s", n.kind)
			}
			b.WriteString("\n")
		}
		b.WriteString("  end\n")
	}
	for _, e := range g.edges {
		fmt.Fprintf(&b, "  %s --> %s\n", e[0], e[1])
	}
	b.WriteString("  classDef shuffle fill:#fde2e1,stroke:#c62828,stroke-width:2px,color:#000\n")
	b.WriteString("  classDef broadcast fill:#e3f2fd,stroke:#1565c0,color:#000\n")
	b.WriteString("  classDef bucketed fill:#e8f5e9,stroke:#2e7d32,stroke-width:2px,color:#000\n")
	b.WriteString("  classDef scan fill:#f5f5f5,stroke:#757575,color:#000\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// mermaidEscaper and dotEscaper are built once: a Replacer builds its tables on first use,
// which cost more than the replacing when a Replacer was made per label.
var (
	mermaidEscaper = strings.NewReplacer(`"`, "#quot;", "<", "#lt;", ">", "#gt;", "\n", "<br/>") //nolint:gochecknoglobals // never written; safe for concurrent use
	dotEscaper     = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)                       //nolint:gochecknoglobals // never written; safe for concurrent use
)

func mermaidEscape(s string) string { return mermaidEscaper.Replace(s) }

// PlanDot writes the plans as a Graphviz digraph with the same colours as PlanMermaid.
func PlanDot(w io.Writer, explains []*plan.Explain) error {
	g := buildGraph(explains)
	var b strings.Builder
	b.WriteString("digraph plan {\n  rankdir=BT;\n  node [shape=box, style=\"rounded,filled\", fillcolor=\"#ffffff\", fontname=\"Helvetica\", fontsize=10];\n")
	styles := map[string]string{
		"shuffle":   `fillcolor="#fde2e1", color="#c62828", penwidth=2`,
		"broadcast": `fillcolor="#e3f2fd", color="#1565c0"`,
		"bucketed":  `fillcolor="#e8f5e9", color="#2e7d32", penwidth=2`,
		"scan":      `fillcolor="#f5f5f5", color="#757575"`,
	}
	for i, c := range g.clusters {
		fmt.Fprintf(&b, "  subgraph cluster_%d {\n    label=%s;\n", i+1, dotQuote(c.title))
		for _, n := range c.nodes {
			fmt.Fprintf(&b, "    %s [label=%s", n.id, dotQuote(n.label))
			if st := styles[n.kind]; st != "" {
				b.WriteString(", " + st)
			}
			b.WriteString("];\n")
		}
		b.WriteString("  }\n")
	}
	for _, e := range g.edges {
		fmt.Fprintf(&b, "  %s -> %s;\n", e[0], e[1])
	}
	b.WriteString("}\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func dotQuote(s string) string {
	return `"` + dotEscaper.Replace(s) + `"`
}
