package ui

import (
	"os"
	"path/filepath"
	"testing"
)

func TestPreferencesComeBackAfterAKill(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fyne", AppID, "preferences.json")
	saved := []byte(`{"rate.annotator":"wen","window.pane":3}`)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path+prefsCopySuffix, saved, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, broken := range []string{"", "   ", `{"rate.annot`} {
		if err := os.WriteFile(path, []byte(broken), 0o600); err != nil {
			t.Fatal(err)
		}
		if !restorePreferences(path) {
			t.Fatalf("%q was not restored", broken)
		}
		if got, _ := os.ReadFile(path); string(got) != string(saved) {
			t.Fatalf("restored %q", got)
		}
	}
	// A good file is left alone.
	good := []byte(`{"rate.annotator":"xia"}`)
	os.WriteFile(path, good, 0o600)
	if restorePreferences(path) {
		t.Fatal("a good preferences file was replaced")
	}
	os.Remove(path)
	if !restorePreferences(path) {
		t.Fatal("a missing preferences file was not restored")
	}
}
