//go:build tools

// Package tools pins the etcd server command this module builds, so `go mod tidy` keeps it.
package tools

import _ "go.etcd.io/etcd/server/v3"
