//go:build firefox

package firefox

import (
	"context"
	"testing"
	"time"
)

// The background page's first start reads the packaged module and keeps a
// decompressed copy in the add-on's IndexedDB; after a reload (as at a
// browser start) it compiles that copy. Its own browser: the reload would
// take the shared one's pages away.
func TestBackgroundCompilesTheKeptModuleAfterAReload(t *testing.T) {
	dir := distDir(t)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	ff, err := startFirefox(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer ff.close()
	chromeBC, err := ff.chromeWindow(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := ff.pinUUID(ctx, chromeBC); err != nil {
		t.Fatal(err)
	}
	id, err := ff.installAddon(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ff.uninstallAddon(context.Background(), id)
	page, err := ff.openExtPage(ctx, chromeBC, "/settings/settings.html")
	if err != nil {
		t.Fatal(err)
	}
	first, err := readyStartup(ctx, ff, page)
	if err != nil {
		t.Fatal(err)
	}
	if first.Module != "package" {
		t.Fatalf("the first start compiled from %q, want the packaged module", first.Module)
	}
	if page, err = reloadWithKeptModule(ctx, ff, chromeBC, page); err != nil {
		t.Fatal(err)
	}
	again, err := readyStartup(ctx, ff, page)
	if err != nil {
		t.Fatal(err)
	}
	if again.Module != "cache" {
		t.Fatalf("the start after the reload compiled from %q, want the kept copy", again.Module)
	}
}
