package ui

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"

	"fyne.io/fyne/v2"

	"github.com/jigbench/jigbench/core/fsutil"
)

// Fyne writes preferences.json by truncating it and writing it again, a
// little after each change; an app killed in between leaves an empty file
// ("Preferences load error: EOF") and every preference is lost. So every
// change is also written to a copy beside it, atomically (temporary file,
// sync, rename), and a missing or broken preferences.json is put back from
// the copy before Fyne reads it.

// prefsCopySuffix names the copy: preferences.json + suffix.
const prefsCopySuffix = ".copy"

// prefsFile is where Fyne keeps this app's preferences on a desktop.
func prefsFile() (string, bool) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", false
	}
	return filepath.Join(dir, "fyne", AppID, "preferences.json"), true
}

// restorePreferences puts the copy back when path is missing, empty or not
// JSON; it reports whether it did.
func restorePreferences(path string) bool {
	if data, err := os.ReadFile(path); err == nil && json.Valid(bytes.TrimSpace(data)) && len(bytes.TrimSpace(data)) > 0 {
		return false
	}
	data, err := os.ReadFile(path + prefsCopySuffix)
	if err != nil || !json.Valid(data) {
		return false
	}
	return os.MkdirAll(filepath.Dir(path), 0o700) == nil && fsutil.WriteFile(path, data) == nil
}

// keepPreferencesCopy writes the copy of prefs on every change.
func keepPreferencesCopy(prefs fyne.Preferences, path string) {
	values, ok := prefs.(interface{ ReadValues(func(map[string]any)) })
	if !ok {
		return
	}
	write := func() {
		var data []byte
		var err error
		values.ReadValues(func(v map[string]any) { data, err = json.Marshal(v) })
		if err == nil {
			_ = fsutil.WriteFile(path+prefsCopySuffix, data) // the copy is a spare; Fyne's own file still counts
		}
	}
	prefs.AddChangeListener(write)
}
