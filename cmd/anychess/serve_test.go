package main

import (
	"bufio"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/acme/autocert"
)

// selfSigned writes a self-signed certificate for 127.0.0.1 and
// chess.example.org, and its key, into dir, and returns their files and
// a pool that trusts it.
func selfSigned(t *testing.T, dir string) (certFile, keyFile string, pool *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "anychess test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		DNSNames: []string{"chess.example.org"}, IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)},
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kder, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: kder}), 0o600); err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	pool = x509.NewCertPool()
	pool.AddCert(cert)
	return certFile, keyFile, pool
}

// startServe runs serve with args on a free loopback port until the test
// ends and returns the address it prints.
func startServe(t *testing.T, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	var errs strings.Builder
	done := make(chan int, 1)
	go func() {
		done <- serve(ctx, append([]string{"-addr", "127.0.0.1:0"}, args...), pw, &errs)
		pw.Close()
	}()
	t.Cleanup(func() {
		cancel()
		if st := <-done; st != 0 {
			t.Errorf("serve ended with %d: %s", st, errs.String())
		}
	})
	line, err := bufio.NewReader(pr).ReadString('\n')
	go io.Copy(io.Discard, pr)
	if err != nil {
		t.Fatalf("serve printed %q (%v); stderr: %s", line, err, errs.String())
	}
	i := strings.Index(line, "://")
	if i < 0 {
		t.Fatalf("serve printed %q", line)
	}
	return strings.TrimSuffix(strings.Fields(line[i-5:])[0], "/")
}

// getWithHost gets base's /api/variants with the Host header host (""
// for the URL's) and returns the response, its body closed.
func getWithHost(t *testing.T, client *http.Client, base, host string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, base+"/api/variants", nil)
	if host != "" {
		req.Host = host
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp
}

// TestServeTLS: with a certificate and key, serve speaks HTTPS (with
// HSTS), and answers only to its -host names and loopback.
func TestServeTLS(t *testing.T) {
	dir := t.TempDir()
	certFile, keyFile, pool := selfSigned(t, dir)
	base := startServe(t, "-data", dir, "-tls-cert", certFile, "-tls-key", keyFile, "-host", "chess.example.org")
	if !strings.HasPrefix(base, "https://") {
		t.Fatalf("serve prints %s, want an https URL", base)
	}
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	tests := []struct {
		host string
		want int
	}{
		{"", http.StatusOK},
		{"chess.example.org", http.StatusOK},
		{"evil.example.com", http.StatusMisdirectedRequest},
	}
	for _, tc := range tests {
		resp := getWithHost(t, client, base, tc.host)
		if resp.StatusCode != tc.want || resp.TLS == nil || resp.Header.Get("Strict-Transport-Security") == "" {
			t.Errorf("Host %q: %d (TLS %v, HSTS %q), want %d", tc.host, resp.StatusCode, resp.TLS != nil,
				resp.Header.Get("Strict-Transport-Security"), tc.want)
		}
	}
}

// TestServeLoopbackHosts: a server on loopback without -host answers to
// localhost and loopback addresses only, so no other site's page can
// reach it through a name of its own (DNS rebinding).
func TestServeLoopbackHosts(t *testing.T) {
	base := startServe(t, "-data", t.TempDir())
	for host, want := range map[string]int{"": http.StatusOK, "localhost:8080": http.StatusOK, "rebound.example.com": http.StatusMisdirectedRequest} {
		resp := getWithHost(t, http.DefaultClient, base, host)
		if resp.StatusCode != want {
			t.Errorf("Host %q: %d, want %d", host, resp.StatusCode, want)
		}
	}
}

// TestServeFlagErrors: contradictory or incomplete HTTPS settings are
// refused before anything is opened.
func TestServeFlagErrors(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"-tls-cert", "c.pem"}, "go together"},
		{[]string{"-acme"}, "needs the site's names"},
		{[]string{"-acme", "-host", "a.example", "-tls-cert", "c", "-tls-key", "k"}, "not both"},
		{[]string{"-tls-cert", filepath.Join(dir, "none.pem"), "-tls-key", filepath.Join(dir, "none.key")}, "none.pem"},
		{[]string{"-host", "https://a.example"}, "without ports or schemes"},
		{[]string{"-engine-threads", "100000"}, "100000 engine threads are more than the machine's"},
		{[]string{"-log", "xml"}, `-log "xml": want text or json`},
	}
	for _, tc := range tests {
		var out, errs strings.Builder
		st := serve(context.Background(), append([]string{"-addr", "127.0.0.1:0", "-data", dir}, tc.args...), &out, &errs)
		if st != 1 || !strings.Contains(errs.String(), tc.want) {
			t.Errorf("%v: status %d, %q; want 1 and %q", tc.args, st, errs.String(), tc.want)
		}
	}
}

// TestACMEConfig: -acme asks certificates only for the -host names,
// answers the TLS-ALPN challenge, and caches under the data folder.
func TestACMEConfig(t *testing.T) {
	dir := t.TempDir()
	cfg, m, err := tlsOptions{acme: true, hosts: []string{"chess.example.org", "www.chess.example.org"}, data: dir}.config()
	if err != nil {
		t.Fatal(err)
	}
	if m == nil || cfg.GetCertificate == nil || !slices.Contains(cfg.NextProtos, "acme-tls/1") {
		t.Fatalf("manager %v, config %+v", m, cfg)
	}
	for host, ok := range map[string]bool{"chess.example.org": true, "www.chess.example.org": true, "evil.example.com": false} {
		if err := m.HostPolicy(context.Background(), host); (err == nil) != ok {
			t.Errorf("host policy for %s: %v", host, err)
		}
	}
	if c, ok := m.Cache.(autocert.DirCache); !ok || string(c) != filepath.Join(dir, "acme") {
		t.Errorf("cache %#v, want %s", m.Cache, filepath.Join(dir, "acme"))
	}
}

// TestServeOneDataDir: a second server on a data folder in use stops
// with an error that names the lock, and serves nothing.
func TestServeOneDataDir(t *testing.T) {
	dir := t.TempDir()
	startServe(t, "-data", dir)
	var out, errs strings.Builder
	st := serve(context.Background(), []string{"-addr", "127.0.0.1:0", "-data", dir}, &out, &errs)
	if st != 1 || !strings.Contains(errs.String(), filepath.Join(dir, "games.db.lock")) || !strings.Contains(errs.String(), "another") || out.Len() != 0 {
		t.Errorf("second server: status %d, stdout %q, stderr %q", st, out.String(), errs.String())
	}
}

// TestServeVariants: serve -variants loads a directory's files, and a
// file that is malformed or beyond the limits stops the start with an
// error naming it and the reason.
func TestServeVariants(t *testing.T) {
	mini, err := os.ReadFile("testdata/minichess.toml")
	if err != nil {
		t.Fatal(err)
	}
	var riders strings.Builder
	riders.WriteString("name = \"riders\"\nstart = \"" + "qqqqqqqkqqqqqqqq/" + strings.Repeat("16/", 14) + "QQQQQQQKQQQQQQQQ w - - 0 1\"\n")
	riders.WriteString("[board]\nfiles = 16\nranks = 16\n[[piece]]\nletter = \"K\"\nname = \"king\"\nbetza = \"K\"\nroyal = true\n[[piece]]\nletter = \"Q\"\nname = \"queen\"\nbetza = \"Q\"\n")
	renamed := strings.Replace(string(mini), "gardner", "long", 1)
	long := renamed + "# " + strings.Repeat("x", 1<<20-len(renamed)-3) + "\n" // 1 MiB
	tests := []struct {
		name, file, text, want string
	}{
		{"16x16 riders", "riders.toml", riders.String(), "riders.toml: variant beyond the limits: board 16x16: at most 12x12"},
		{"malformed", "bad.toml", "name = \"bad\"\n[board\nfiles = 8\n", "bad.toml:2:"},
		{"1 MiB", "long.toml", long, "long.toml: variant beyond the limits: the file is 1048576 bytes, at most 65536"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "mini.toml"), mini, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, tc.file), []byte(tc.text), 0o644); err != nil {
				t.Fatal(err)
			}
			var out, errs strings.Builder
			st := serve(context.Background(), []string{"-addr", "127.0.0.1:0", "-data", t.TempDir(), "-variants", dir}, &out, &errs)
			if st != 1 || !strings.Contains(errs.String(), tc.want) || !strings.Contains(errs.String(), "anychess serve: -variants: ") {
				t.Errorf("status %d, stderr %q; want 1 and %q", st, errs.String(), tc.want)
			}
		})
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "mini.toml"), mini, 0o644); err != nil {
		t.Fatal(err)
	}
	base := startServe(t, "-data", t.TempDir(), "-variants", dir)
	resp, err := http.Get(base + "/api/variants/gardner/pieces")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("the loaded variant's pieces: %s", resp.Status)
	}
}
