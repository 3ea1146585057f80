//go:build tools

// Package tools pins the Gitea command this module builds, so `go mod tidy` keeps it.
package tools

import (
	_ "code.gitea.io/gitea"
)
