package code

import (
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// A shellWord is one word of a shell command line after quote removal; off is the file
// offset of its first byte as written (a quote, if it starts with one).
type shellWord struct {
	text string
	off  int
	// quoted is the offset of the first byte inside the word's opening quote, or off.
	inner int
}

// shellLines splits a shell script into commands of words: quotes ('…', "…") group, a
// backslash-newline continues the line, # starts a comment at the start of a word.
func shellLines(src []byte) [][]shellWord {
	var lines [][]shellWord
	var cur []shellWord
	var w strings.Builder
	inWord, start, inner := false, 0, 0
	end := func() {
		if inWord {
			cur = append(cur, shellWord{text: w.String(), off: start, inner: inner})
			w.Reset()
			inWord = false
		}
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '\\' && i+1 < len(src) && src[i+1] == '\n':
			end()
			i++
		case c == '\n' || c == ';':
			end()
			if len(cur) > 0 {
				lines = append(lines, cur)
				cur = nil
			}
		case c == ' ' || c == '\t' || c == '\r':
			end()
		case c == '#' && !inWord:
			for i < len(src) && src[i] != '\n' {
				i++
			}
			i--
		case c == '\'' || c == '"':
			if !inWord {
				inWord, start, inner = true, i, i+1
			}
			j := i + 1
			for j < len(src) && src[j] != c {
				if c == '"' && src[j] == '\\' && j+1 < len(src) {
					j++
				}
				w.WriteByte(src[j])
				j++
			}
			i = j
		default:
			if !inWord {
				inWord, start, inner = true, i, i
			}
			w.WriteByte(c)
		}
	}
	end()
	if len(cur) > 0 {
		lines = append(lines, cur)
	}
	return lines
}

// shellConfs finds --conf k=v (also --conf=k=v, and -c k=v on spark-submit, pyspark,
// spark-shell and spark-sql lines) in a shell script.
func shellConfs(src *source) []plan.Conf {
	var out []plan.Conf
	for _, words := range shellLines(src.text) {
		spark := false
		for _, w := range words {
			switch {
			case strings.HasSuffix(w.text, "spark-submit"), strings.HasSuffix(w.text, "pyspark"),
				strings.HasSuffix(w.text, "spark-shell"), strings.HasSuffix(w.text, "spark-sql"):
				spark = true
			}
		}
		for i, w := range words {
			var kv shellWord
			switch {
			case (w.text == "--conf" || (spark && w.text == "-c")) && i+1 < len(words):
				kv = words[i+1]
			case strings.HasPrefix(w.text, "--conf="):
				kv = shellWord{text: w.text[len("--conf="):], off: w.off, inner: w.inner + len("--conf=")}
				if w.inner > w.off {
					kv.inner = w.inner
				}
			default:
				continue
			}
			eq := strings.IndexByte(kv.text, '=')
			if eq <= 0 {
				continue
			}
			end := kv.inner + len(kv.text)
			if kv.inner > kv.off {
				end++ // the closing quote
			}
			out = append(out, plan.Conf{Key: kv.text[:eq], Value: kv.text[eq+1:], Pos: src.pos(kv.inner), Span: src.span(kv.inner, end)})
		}
	}
	return out
}

// defaultsConfs reads spark-defaults.conf: one "key value" per line (whitespace, "=" or ":"
// separated, as java.util.Properties reads it), "#" and "!" comments.
func defaultsConfs(src *source) []plan.Conf {
	var out []plan.Conf
	text := string(src.text)
	off := 0
	for _, line := range strings.Split(text, "\n") {
		lineOff := off
		off += len(line) + 1
		t := strings.TrimLeft(line, " \t")
		if t == "" || t[0] == '#' || t[0] == '!' {
			continue
		}
		keyOff := lineOff + len(line) - len(t)
		t = strings.TrimRight(t, " \t\r")
		k := strings.IndexAny(t, " \t=:")
		key, val := t, ""
		if k >= 0 {
			key = t[:k]
			val = strings.TrimLeft(t[k:], " \t")
			if val != "" && (val[0] == '=' || val[0] == ':') {
				val = strings.TrimLeft(val[1:], " \t")
			}
		}
		out = append(out, plan.Conf{Key: key, Value: val, Pos: src.pos(keyOff), Span: src.span(keyOff, keyOff+len(t))})
	}
	return out
}
