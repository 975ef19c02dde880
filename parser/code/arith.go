package code

import "math"

// arith folds an integer operation on two constants as the language computes it: Scala's and
// Java's Int arithmetic (division and remainder truncate toward zero), Python's integers
// (// and % round toward negative infinity; / makes a float, which is no count). A result
// outside a 32-bit int, which a bucket count or a setting read as one cannot be (Scala's
// Int would wrap, Python would pass a long the JVM method does not take), and a division by
// zero, which raises, are unknown.
func (ev *evaluator) arith(op string, a, b int) *value {
	var r int
	switch op {
	case "+":
		r = a + b
	case "-":
		r = a - b
	case "*":
		if a != 0 && (b > math.MaxInt32 || b < math.MinInt32 || a > math.MaxInt32 || a < math.MinInt32) {
			return unknown
		}
		r = a * b
	case "/", "//", "%":
		q, m, ok := divide(a, b, ev.scala, op)
		if !ok {
			return unknown
		}
		r = q
		if op == "%" {
			r = m
		}
	default:
		return unknown
	}
	if r > math.MaxInt32 || r < math.MinInt32 {
		return unknown
	}
	return &value{kind: vNum, num: r}
}

// divide is a/b and a%b in the language's rounding: truncating for Scala and Java ("/"
// and "%"), flooring for Python ("//" and "%"); ok is false for a division by zero and for
// an operator the language does not divide integers with (Python's "/", Scala's "//").
func divide(a, b int, scala bool, op string) (q, m int, ok bool) {
	if b == 0 || scala && op == "//" || !scala && op == "/" {
		return 0, 0, false
	}
	q, m = a/b, a%b
	if !scala && m != 0 && (m < 0) != (b < 0) {
		q, m = q-1, m+b
	}
	return q, m, true
}
