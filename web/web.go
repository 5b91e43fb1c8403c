// Package web holds the anychess web page, built from web/src with npm and
// esbuild into web/dist, which is committed and embedded here, so the
// server needs no build step of its own.
package web

import (
	"bytes"
	"compress/gzip"
	"embed"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"
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
// text files (HTML, JavaScript, CSS, SVG) are compressed with gzip once,
// the first time a handler is made, and a client whose Accept-Encoding
// takes gzip gets that body with Content-Encoding: gzip; any other client
// gets the file as it is. Either answer says Vary: Accept-Encoding. The
// security headers (content security policy, nosniff, framing) are the
// server's, set on every response it sends.
func Handler() http.Handler {
	sub := FS()
	files := http.FileServerFS(sub)
	zipped := gzipped()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/" || strings.HasSuffix(r.URL.Path, ".html") {
			w.Header().Set("Cache-Control", "no-cache")
		} else {
			w.Header().Set("Cache-Control", "max-age=300")
		}
		name := fileName(r.URL.Path)
		if z, ok := zipped[name]; ok {
			w.Header().Add("Vary", "Accept-Encoding")
			if (r.Method == http.MethodGet || r.Method == http.MethodHead) && acceptsGzip(r.Header.Values("Accept-Encoding")) {
				w.Header().Set("Content-Encoding", "gzip")
				if ctype := mime.TypeByExtension(path.Ext(name)); ctype != "" {
					w.Header().Set("Content-Type", ctype)
				}
				http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(z))
				return
			}
		}
		files.ServeHTTP(w, r)
	})
}

// fileName is the file of dist a request path names: index.html for "/",
// the path without its leading slash otherwise. "/index.html" names no
// file here, so the file server redirects it to "/" as it always has.
func fileName(urlPath string) string {
	if urlPath == "/" {
		return "index.html"
	}
	name := strings.TrimPrefix(urlPath, "/")
	if name == "index.html" || !fs.ValidPath(name) {
		return ""
	}
	return name
}

// compressible lists the extensions of the files worth compressing.
var compressible = map[string]bool{".html": true, ".js": true, ".css": true, ".svg": true}

// gzipped returns the gzip bodies of the page's text files by name, made
// once per process. A file that does not get smaller, or that cannot be
// read or compressed, has none and is always served as it is.
var gzipped = sync.OnceValue(func() map[string][]byte {
	sub := FS()
	out := map[string][]byte{}
	fs.WalkDir(sub, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !compressible[path.Ext(name)] {
			return nil
		}
		plain, err := fs.ReadFile(sub, name)
		if err != nil {
			return nil
		}
		var buf bytes.Buffer
		zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		if err != nil {
			return nil
		}
		if _, err := zw.Write(plain); err != nil {
			return nil
		}
		if err := zw.Close(); err != nil {
			return nil
		}
		if buf.Len() < len(plain) {
			out[name] = buf.Bytes()
		}
		return nil
	})
	return out
})

// acceptsGzip reports whether Accept-Encoding header values take gzip: it
// (or x-gzip) is listed with a quality above zero, or, not being listed,
// "*" is.
func acceptsGzip(values []string) bool {
	gz, star := -1.0, -1.0
	for _, v := range values {
		for _, part := range strings.Split(v, ",") {
			coding, params, _ := strings.Cut(part, ";")
			q := 1.0
			for _, p := range strings.Split(params, ";") {
				k, val, ok := strings.Cut(p, "=")
				if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
					f, err := strconv.ParseFloat(strings.TrimSpace(val), 64)
					if err != nil {
						f = 0
					}
					q = f
				}
			}
			switch strings.ToLower(strings.TrimSpace(coding)) {
			case "gzip", "x-gzip":
				gz = max(gz, q)
			case "*":
				star = max(star, q)
			}
		}
	}
	if gz >= 0 {
		return gz > 0
	}
	return star > 0
}
