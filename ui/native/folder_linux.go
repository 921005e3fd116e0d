package native

// sqweek/dialog's Linux folder dialog drops the start folder (its
// DirectoryBuilder.browse builds a fresh FileBuilder without StartDir), so
// GTK opens on "Recent". This is the same GTK folder chooser with the start
// folder set; sqweek's init has already initialised GTK (and Xlib threads).

// #cgo pkg-config: gtk+-3.0
// #include <gtk/gtk.h>
// #include <stdlib.h>
// static GtkWidget* folderdlg(char *title) {
// 	return gtk_file_chooser_dialog_new(title, NULL, GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER,
// 		"Cancel", GTK_RESPONSE_CANCEL, "Open", GTK_RESPONSE_ACCEPT, NULL);
// }
import "C"

import (
	"errors"
	"unsafe"

	"github.com/sqweek/dialog"
)

// browseFolder shows GTK's folder chooser opened in start ("" for GTK's
// default) and returns the folder chosen, or dialog.ErrCancelled.
func browseFolder(title, start string) (string, error) {
	if C.gtk_init_check(nil, nil) != C.TRUE {
		return "", errors.New("gtk initialisation failed; presumably no X server is available")
	}
	ctitle := C.CString(title)
	defer C.free(unsafe.Pointer(ctitle))
	dlg := C.folderdlg(ctitle)
	chooser := (*C.GtkFileChooser)(unsafe.Pointer(dlg))
	if start != "" {
		cdir := C.CString(start)
		defer C.free(unsafe.Pointer(cdir))
		C.gtk_file_chooser_set_current_folder(chooser, cdir)
	}
	r := C.gtk_dialog_run((*C.GtkDialog)(unsafe.Pointer(dlg)))
	path := ""
	if r == C.GTK_RESPONSE_ACCEPT {
		if name := C.gtk_file_chooser_get_filename(chooser); name != nil {
			path = C.GoString(name)
			C.g_free(C.gpointer(unsafe.Pointer(name)))
		}
	}
	C.gtk_widget_destroy(dlg)
	for C.gtk_events_pending() != 0 { // let GTK take the dialog off the screen
		C.gtk_main_iteration()
	}
	if path == "" {
		return "", dialog.ErrCancelled
	}
	return path, nil
}
