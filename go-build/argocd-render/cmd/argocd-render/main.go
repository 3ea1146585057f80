// Command argocd-render prints the Applications Argo CD's ApplicationSet controller would create for ApplicationSet
// manifests, by running Argo CD's own Reconcile against a fake cluster. It takes the command line of `appset render`
// so the differential tests can run both on the same input:
//
//	argocd-render FILE... [--repo REPO_URL=LOCAL_PATH]... [--clusters FILE] [-o yaml|json]
//	argocd-render --print-application-shape
//
// The second form prints the encoding/json shape of Argo CD's ApplicationSpec (see shape.go), which
// src/model/argocd-application-shape.ts holds; the differential tests check that the two agree.
//
// Applications go to stdout, sorted by namespace then name. Refused ApplicationSets print nothing there; stderr gets
// one JSON line per ApplicationSet Argo CD refused wholly or in part (see Report). The exit code is 0 unless the
// tool itself failed (1) or was called wrongly (2).
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/go-logr/logr"
	log "github.com/sirupsen/logrus"
	"github.com/spf13/pflag"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/klog/v2"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"
)

// options is the parsed command line.
type options struct {
	files    []string
	repos    map[string]string
	clusters string
	output   string
}

func main() {
	if len(os.Args) == 2 && os.Args[1] == "--print-application-shape" {
		if err := printApplicationShape(os.Stdout); err != nil {
			fmt.Fprintf(os.Stderr, "argocd-render: %v\n", err)
			os.Exit(1)
		}
		return
	}
	opts, err := parseArgs(os.Args[1:])
	if err != nil {
		fmt.Fprintf(os.Stderr, "argocd-render: %v\nusage: argocd-render FILE... [--repo REPO_URL=LOCAL_PATH]... [--clusters FILE] [-o yaml|json]\n", err)
		os.Exit(2)
	}
	quietLogs()
	if err := run(context.Background(), opts, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintf(os.Stderr, "argocd-render: %v\n", err)
		os.Exit(1)
	}
}

// parseArgs reads the command line; flags may come before, between or after the files.
func parseArgs(args []string) (options, error) {
	flags := pflag.NewFlagSet("argocd-render", pflag.ContinueOnError)
	flags.SetOutput(io.Discard)
	repos := flags.StringArray("repo", nil, "REPO_URL=LOCAL_PATH: read repoURL from a local Git repository (repeatable)")
	clusters := flags.String("clusters", "", "YAML file of Argo CD cluster Secrets")
	output := flags.StringP("output", "o", "yaml", "yaml or json")
	if err := flags.Parse(args); err != nil {
		return options{}, err
	}
	opts := options{files: flags.Args(), repos: map[string]string{}, clusters: *clusters, output: *output}
	if opts.output != "yaml" && opts.output != "json" {
		return opts, fmt.Errorf("-o must be yaml or json, not %q", opts.output)
	}
	if len(opts.files) == 0 {
		return opts, fmt.Errorf("name at least one ApplicationSet file")
	}
	for _, mapping := range *repos {
		at := strings.LastIndex(mapping, "=")
		if at <= 0 || at == len(mapping)-1 {
			return opts, fmt.Errorf("--repo must be REPO_URL=LOCAL_PATH, not %q", mapping)
		}
		opts.repos[mapping[:at]] = mapping[at+1:]
	}
	return opts, nil
}

// quietLogs silences Argo CD's, client-go's and controller-runtime's logs, which would mix with the JSON reports on
// stderr; ARGOCD_RENDER_LOGLEVEL (e.g. debug) shows Argo CD's instead.
func quietLogs() {
	klog.LogToStderr(false)
	klog.SetOutput(io.Discard)
	ctrllog.SetLogger(logr.Discard())
	if level, err := log.ParseLevel(os.Getenv("ARGOCD_RENDER_LOGLEVEL")); err == nil {
		log.SetLevel(level)
		return
	}
	// Error level stays enabled: the validation messages are read from it.
	log.SetLevel(log.ErrorLevel)
	log.SetOutput(io.Discard)
	// Argo CD's exec tracing makes a logger of its own per git command, configured by these variables.
	_ = os.Setenv("ARGOCD_LOG_LEVEL", "error")
	_ = os.Setenv("ARGOCD_LOG_FORMAT", "text")
}

// run renders the files: reads them, reconciles every ApplicationSet, prints the Applications and the reports.
func run(ctx context.Context, opts options, stdout, stderr io.Writer) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	appsets, undecoded, err := readApplicationSets(opts.files)
	if err != nil {
		return err
	}
	secrets, err := readSecrets(opts.clusters)
	if err != nil {
		return err
	}
	// The plugin generator's ConfigMaps, from the same file.
	configMaps, err := readKind[corev1.ConfigMap](opts.clusters, "ConfigMap")
	if err != nil {
		return err
	}
	ducks, err := readDuckObjects(opts.clusters)
	if err != nil {
		return err
	}
	repos, err := newLocalRepoServer(opts.repos)
	if err != nil {
		return err
	}
	defer repos.close()
	reconciler, err := newReconciler(ctx, appsets, secrets, configMaps, ducks, repos)
	if err != nil {
		return err
	}
	reports := make([]Report, 0, len(undecoded))
	for _, u := range undecoded {
		reports = append(reports, Report{ApplicationSet: u.key, Errors: []string{"the API server would reject it: " + u.err.Error()}})
	}
	reconciled, err := reconcileAll(ctx, reconciler, appsets)
	if err != nil {
		return err
	}
	apps, err := listApplications(ctx, reconciler.Client)
	if err != nil {
		return err
	}
	if err := writeApplications(stdout, apps, opts.output); err != nil {
		return err
	}
	return writeReports(stderr, append(reports, reconciled...))
}
