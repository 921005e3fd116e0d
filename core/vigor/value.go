package vigor

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
)

// Value is a statistic that may be undefined — a mean over nothing, an
// agreement coefficient of data without variation. An undefined Value is
// never shown as 0 or 1: it marshals to the JSON string "undefined" and
// prints as "undefined". The zero Value is undefined.
type Value struct {
	v  float64
	ok bool
}

// Undefined is the undefined Value.
var Undefined Value

// Defined returns v as a Value; NaN and ±Inf give Undefined, so a Value
// never carries a non-finite number.
func Defined(v float64) Value {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return Undefined
	}
	return Value{v: v, ok: true}
}

// ratio returns num/den, undefined when den is 0.
func ratio(num, den float64) Value {
	if den == 0 {
		return Undefined
	}
	return Defined(num / den)
}

// Get returns the number and whether it is defined.
func (x Value) Get() (float64, bool) { return x.v, x.ok }

// OK reports whether x is defined.
func (x Value) OK() bool { return x.ok }

// Or returns the number, or def when x is undefined.
func (x Value) Or(def float64) float64 {
	if !x.ok {
		return def
	}
	return x.v
}

// String formats x with 4 decimals, or "undefined".
func (x Value) String() string { return x.Format(4) }

// Format formats x with prec decimals, or "undefined".
func (x Value) Format(prec int) string {
	if !x.ok {
		return "undefined"
	}
	return strconv.FormatFloat(x.v, 'f', prec, 64)
}

// Percent formats x as a percentage with prec decimals, or "undefined".
func (x Value) Percent(prec int) string {
	if !x.ok {
		return "undefined"
	}
	return strconv.FormatFloat(100*x.v, 'f', prec, 64) + "%"
}

// MarshalJSON writes the number, or the string "undefined".
func (x Value) MarshalJSON() ([]byte, error) {
	if !x.ok {
		return []byte(`"undefined"`), nil
	}
	return strconv.AppendFloat(nil, x.v, 'g', -1, 64), nil
}

// UnmarshalJSON reads what MarshalJSON writes.
func (x *Value) UnmarshalJSON(b []byte) error {
	if string(b) == `"undefined"` {
		*x = Undefined
		return nil
	}
	var f float64
	if err := json.Unmarshal(b, &f); err != nil {
		return fmt.Errorf("statistic: want a number or \"undefined\", got %s", b)
	}
	*x = Defined(f)
	return nil
}

// Interval is a confidence interval; it is undefined when either end is.
type Interval struct {
	Lo, Hi Value
}

// OK reports whether both ends are defined.
func (iv Interval) OK() bool { return iv.Lo.ok && iv.Hi.ok }

// MarshalJSON writes [lo, hi], or "undefined".
func (iv Interval) MarshalJSON() ([]byte, error) {
	if !iv.OK() {
		return []byte(`"undefined"`), nil
	}
	return json.Marshal([2]Value{iv.Lo, iv.Hi})
}

// UnmarshalJSON reads what MarshalJSON writes.
func (iv *Interval) UnmarshalJSON(b []byte) error {
	if string(b) == `"undefined"` {
		*iv = Interval{}
		return nil
	}
	var a [2]Value
	if err := json.Unmarshal(b, &a); err != nil {
		return err
	}
	iv.Lo, iv.Hi = a[0], a[1]
	return nil
}

// Format formats the interval as "[lo, hi]" with prec decimals.
func (iv Interval) Format(prec int) string {
	if !iv.OK() {
		return "undefined"
	}
	return "[" + iv.Lo.Format(prec) + ", " + iv.Hi.Format(prec) + "]"
}
