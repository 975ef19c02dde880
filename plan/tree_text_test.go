package plan

import "testing"

func TestRewrite(t *testing.T) {
	t.Parallel()
	at := func(line, col int) Pos { return Pos{File: "q.sql", Line: line, Col: col} }
	// "a.status <> 'x'\n  AND upper(a.k) = 1" starting at 3:7
	status := &X{Op: OpColumn, Qualifier: "a", Name: "status", Raw: "a.status", Span: Span{at(3, 7), at(3, 15)}}
	lit := &X{Op: OpLiteral, Value: "x", Type: "string", Raw: "'x'", Span: Span{at(3, 19), at(3, 22)}}
	ne := &X{Op: OpBinary, Name: "!=", Args: []*X{status, lit}, Raw: "a.status <> 'x'", Span: Span{at(3, 7), at(3, 22)}}
	k := &X{Op: OpColumn, Qualifier: "a", Name: "k", Raw: "a.k", Span: Span{at(4, 13), at(4, 16)}}
	up := &X{Op: OpCall, Name: "upper", Args: []*X{k}, Raw: "upper(a.k)", Span: Span{at(4, 7), at(4, 17)}}
	one := &X{Op: OpLiteral, Value: "1", Type: "int", Raw: "1", Span: Span{at(4, 20), at(4, 21)}}
	eq := &X{Op: OpBinary, Name: "=", Args: []*X{up, one}, Raw: "upper(a.k) = 1", Span: Span{at(4, 7), at(4, 21)}}
	and := &X{Op: OpBinary, Name: "and", Args: []*X{ne, eq}, Raw: "a.status <> 'x'\n  AND upper(a.k) = 1", Span: Span{at(3, 7), at(4, 21)}}
	unqualify := func(n *X) (string, bool) {
		if n.Op == OpColumn {
			return n.Name, true
		}
		return "", false
	}
	if got, want := and.Rewrite(unqualify), "status <> 'x'\n  AND upper(k) = 1"; got != want {
		t.Errorf("Rewrite = %q, want %q", got, want)
	}
	// Without spans the text stays as it is.
	bare := &X{Op: OpBinary, Name: "=", Args: []*X{{Op: OpColumn, Name: "k", Raw: "a.k"}}, Raw: "a.k = 1"}
	if got := bare.Rewrite(unqualify); got != "a.k = 1" {
		t.Errorf("Rewrite without spans = %q", got)
	}
	var nilX *X
	if nilX.Rewrite(unqualify) != "" {
		t.Error("nil")
	}
}
