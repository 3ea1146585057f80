// Command argocd-repo-server is Argo CD's own repo-server, built unchanged from its Go module: Argo CD's
// ApplicationSet controller asks it for the git generator's directories and files in the side-by-side benchmark.
// Its flags and environment are Argo CD's (see its --help).
package main

import (
	"os"

	"k8s.io/klog/v2"

	reposerver "github.com/argoproj/argo-cd/v3/cmd/argocd-repo-server/commands"
	"github.com/argoproj/argo-cd/v3/util/log"
)

func main() {
	// As Argo CD's combined binary does before any command runs: klog through its logrus configuration.
	klog.SetLogger(log.NewLogrusLogger(log.NewWithCurrentConfig()))
	if err := reposerver.NewCommand().Execute(); err != nil {
		os.Exit(1)
	}
}
