package puzzle

import (
	"strings"
	"testing"
)

func TestParseInstanceRefusesInvalidUTF8(t *testing.T) {
	data := "{\"format\":\"jigbench.instance/v1\",\n\"id\":\"alpine\xff-g4-s1\"}"
	for name, parse := range map[string]func([]byte) error{
		"ParseInstance":       func(b []byte) error { _, err := ParseInstance(b); return err },
		"ParsePublicInstance": func(b []byte) error { _, err := ParsePublicInstance(b); return err },
	} {
		err := parse([]byte(data))
		if err == nil || !strings.Contains(err.Error(), "line 2, column 13: byte 0xff is not valid UTF-8") {
			t.Errorf("%s = %v, want the line and column of the invalid byte", name, err)
		}
	}
}
