// Package web holds the anychess web page, built from web/src with npm and
// esbuild into web/dist, which is committed and embedded here, so the
// server needs no build step of its own.
package web

import (
	"embed"
	"io/fs"
	"net/http"
	"strings"
)

//go:embed dist
var dist embed.FS

// FS returns the built page's files (index.html, app.js, app.css, pieces).
func FS() fs.FS {
	sub, err := fs.Sub(dist, "dist")
	if err != nil {
		panic(err) // the embedded tree always has dist
	}
	return sub
}

// Handler serves the page. Hashed asset names do not exist, so every file
// is served with a short cache lifetime; index.html is never cached. The
// security headers (content security policy, nosniff, framing) are the
// server's, set on every response it sends.
func Handler() http.Handler {
	files := http.FileServerFS(FS())
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/" || strings.HasSuffix(r.URL.Path, ".html") {
			w.Header().Set("Cache-Control", "no-cache")
		} else {
			w.Header().Set("Cache-Control", "max-age=300")
		}
		files.ServeHTTP(w, r)
	})
}
