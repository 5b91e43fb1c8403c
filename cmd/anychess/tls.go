package main

import (
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"path/filepath"
	"strings"

	"golang.org/x/crypto/acme/autocert"
)

// tlsOptions are serve's HTTPS settings.
type tlsOptions struct {
	cert, key string   // certificate and key files (PEM)
	acme      bool     // certificates from an ACME CA (Let's Encrypt) for hosts
	email     string   // the ACME account's contact, optional
	hosts     []string // the names the server answers to
	data      string   // the data folder: the ACME cache is its acme folder
}

// errTLS is wrapped by errors in serve's HTTPS settings.
var errTLS = errors.New("bad TLS settings")

// config returns the TLS configuration of o: nil for plain HTTP, else one
// with the certificate files, or one whose certificates come from ACME
// (with the manager, whose host policy accepts only o.hosts and whose
// cache is the acme folder of the data folder).
func (o tlsOptions) config() (*tls.Config, *autocert.Manager, error) {
	switch {
	case o.acme && (o.cert != "" || o.key != ""):
		return nil, nil, fmt.Errorf("%w: -acme or -tls-cert/-tls-key, not both", errTLS)
	case o.acme && len(o.hosts) == 0:
		return nil, nil, fmt.Errorf("%w: -acme needs the site's names in -host", errTLS)
	case o.acme:
		m := &autocert.Manager{
			Prompt:     autocert.AcceptTOS,
			HostPolicy: autocert.HostWhitelist(o.hosts...),
			Cache:      autocert.DirCache(filepath.Join(o.data, "acme")),
			Email:      o.email,
		}
		cfg := m.TLSConfig()
		cfg.MinVersion = tls.VersionTLS12
		return cfg, m, nil
	case (o.cert == "") != (o.key == ""):
		return nil, nil, fmt.Errorf("%w: -tls-cert and -tls-key go together", errTLS)
	case o.cert != "":
		pair, err := tls.LoadX509KeyPair(o.cert, o.key)
		if err != nil {
			return nil, nil, fmt.Errorf("%w: %w", errTLS, err)
		}
		return &tls.Config{Certificates: []tls.Certificate{pair}, MinVersion: tls.VersionTLS12,
			NextProtos: []string{"h2", "http/1.1"}}, nil, nil
	}
	return nil, nil, nil
}

// hostList splits serve's -host value: names separated by commas. A name
// is a DNS name or an address, without a port.
func hostList(s string) ([]string, error) {
	var out []string
	for _, h := range strings.Split(s, ",") {
		h = strings.TrimSpace(h)
		if h == "" {
			continue
		}
		if strings.ContainsAny(h, ":/ @") && net.ParseIP(h) == nil {
			return nil, fmt.Errorf("-host %q: want names without ports or schemes, separated by commas", h)
		}
		out = append(out, strings.ToLower(h))
	}
	return out, nil
}

// loopbackAddr reports whether a listen address (host:port) is on the
// loopback interface only.
func loopbackAddr(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
