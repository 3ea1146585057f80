// Command argocd is the one part of Argo CD's `argocd` binary its repo-server needs: git's credential helper. The
// repo-server runs git with GIT_ASKPASS=argocd and ARGOCD_BINARY_NAME=argocd-git-ask-pass, so a binary of this
// name on the repo-server's PATH answers git's username and password prompts from the repo-server's askpass socket.
package main

import (
	"fmt"
	"os"

	gitaskpass "github.com/argoproj/argo-cd/v3/cmd/argocd-git-ask-pass/commands"
)

func main() {
	if name := os.Getenv("ARGOCD_BINARY_NAME"); name != "argocd-git-ask-pass" {
		fmt.Fprintf(os.Stderr, "argocd: only the git credential helper is built here (ARGOCD_BINARY_NAME=argocd-git-ask-pass), not %q\n", name)
		os.Exit(2)
	}
	command := gitaskpass.NewCommand()
	command.SilenceErrors = true
	command.SilenceUsage = true
	if err := command.Execute(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
