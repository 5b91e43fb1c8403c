package web

import (
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestGzip: a client that takes gzip gets each text file of the page
// compressed, and the body decompresses to the file; a client that does
// not gets the file itself. Both answers vary by Accept-Encoding.
func TestGzip(t *testing.T) {
	h := Handler()
	tests := []struct {
		path, file, accept string
		gzip               bool
	}{
		{"/", "index.html", "gzip", true},
		{"/app.js", "app.js", "gzip, deflate, br", true},
		{"/app.css", "app.css", "br;q=1.0, gzip;q=0.8", true},
		{"/app.js", "app.js", "*", true},
		{"/app.js", "app.js", "GZIP", true},
		{"/app.js", "app.js", "", false},
		{"/app.js", "app.js", "identity", false},
		{"/app.js", "app.js", "gzip;q=0", false},
		{"/app.css", "app.css", "*, gzip;q=0", false},
		{"/app.css", "app.css", "br", false},
		{"/", "index.html", "deflate", false},
	}
	for _, tt := range tests {
		t.Run(tt.path+" "+tt.accept, func(t *testing.T) {
			want, err := fs.ReadFile(FS(), tt.file)
			if err != nil {
				t.Fatal(err)
			}
			req := httptest.NewRequest(http.MethodGet, tt.path, nil)
			if tt.accept != "" {
				req.Header.Set("Accept-Encoding", tt.accept)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			resp := rec.Result()
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("status %d", resp.StatusCode)
			}
			if v := resp.Header.Get("Vary"); !strings.Contains(v, "Accept-Encoding") {
				t.Errorf("Vary %q, want Accept-Encoding", v)
			}
			body := rec.Body.Bytes()
			enc := resp.Header.Get("Content-Encoding")
			if !tt.gzip {
				if enc != "" {
					t.Errorf("Content-Encoding %q, want none", enc)
				}
				if !bytes.Equal(body, want) {
					t.Errorf("body of %d bytes is not the file (%d bytes)", len(body), len(want))
				}
				return
			}
			if enc != "gzip" {
				t.Fatalf("Content-Encoding %q, want gzip", enc)
			}
			if len(body) >= len(want) {
				t.Errorf("gzip body of %d bytes, the file has %d", len(body), len(want))
			}
			zr, err := gzip.NewReader(bytes.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(zr)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("body decompresses to %d bytes, not the file (%d bytes)", len(got), len(want))
			}
			if ct, plain := resp.Header.Get("Content-Type"), plainType(t, h, tt.path); ct != plain {
				t.Errorf("Content-Type %q, the plain file's is %q", ct, plain)
			}
		})
	}
}

// plainType is the Content-Type the handler gives path to a client that
// does not take gzip.
func plainType(t *testing.T, h http.Handler, path string) string {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
	return rec.Result().Header.Get("Content-Type")
}

// TestGzipOthers: what is not a compressed text file keeps the file
// server's answers: a missing file is 404, /index.html redirects to /, and
// a HEAD request gets the headers of the gzip answer without a body.
func TestGzipOthers(t *testing.T) {
	h := Handler()
	tests := []struct {
		method, path string
		status       int
		enc          string
	}{
		{http.MethodGet, "/nope.js", http.StatusNotFound, ""},
		{http.MethodGet, "/index.html", http.StatusMovedPermanently, ""},
		{http.MethodHead, "/app.js", http.StatusOK, "gzip"},
	}
	for _, tt := range tests {
		req := httptest.NewRequest(tt.method, tt.path, nil)
		req.Header.Set("Accept-Encoding", "gzip")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != tt.status || rec.Header().Get("Content-Encoding") != tt.enc {
			t.Errorf("%s %s: status %d, Content-Encoding %q; want %d, %q", tt.method, tt.path, rec.Code, rec.Header().Get("Content-Encoding"), tt.status, tt.enc)
		}
		if tt.method == http.MethodHead && rec.Body.Len() != 0 {
			t.Errorf("HEAD %s: a body of %d bytes", tt.path, rec.Body.Len())
		}
	}
}
