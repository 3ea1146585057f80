// Command argocd-applicationset-controller is Argo CD's own ApplicationSet controller, built unchanged from its Go
// module: the side-by-side benchmark (bench/system-argocd.ts) runs it against the same API server as this project's
// controller. Its flags and environment are Argo CD's (see its --help).
package main

import (
	"os"

	"k8s.io/klog/v2"

	applicationset "github.com/argoproj/argo-cd/v3/cmd/argocd-applicationset-controller/commands"
	"github.com/argoproj/argo-cd/v3/util/log"
)

func main() {
	// As Argo CD's combined binary does before any command runs: klog through its logrus configuration.
	klog.SetLogger(log.NewLogrusLogger(log.NewWithCurrentConfig()))
	if err := applicationset.NewCommand().Execute(); err != nil {
		os.Exit(1)
	}
}
