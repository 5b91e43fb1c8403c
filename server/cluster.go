package server

import (
	"time"

	"github.com/nats-io/nats.go"
)

// ClusterConfig makes the server one node of a cluster: several
// `anychess serve` processes on one PostgreSQL database and one NATS
// server, any of which accepts any client (docs/scale.md).
type ClusterConfig struct {
	// NATS is the connection to the cluster's message bus; required.
	NATS *nats.Conn
	// Node names this process in the cluster; it must differ from every
	// other node's, and from its own earlier runs (default: random).
	Node string
	// Lease is how long a node owns a game after its last renewal
	// (default 3s): a node that dies loses its games this long after it
	// last renewed them.
	Lease time.Duration
}
