package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sort"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"

	argov1alpha1 "github.com/argoproj/argo-cd/v3/pkg/apis/application/v1alpha1"
)

// Application is a created Application reduced to what the ApplicationSet controller decides: no owner
// references, resource versions, timestamps or status, which the cluster adds.
type Application struct {
	APIVersion string                       `json:"apiVersion"`
	Kind       string                       `json:"kind"`
	Metadata   ApplicationMetadata          `json:"metadata"`
	Spec       argov1alpha1.ApplicationSpec `json:"spec"`
}

// ApplicationMetadata is the part of an Application's metadata the ApplicationSet template sets.
type ApplicationMetadata struct {
	Name        string            `json:"name"`
	Namespace   string            `json:"namespace"`
	Labels      map[string]string `json:"labels,omitempty"`
	Annotations map[string]string `json:"annotations,omitempty"`
	Finalizers  []string          `json:"finalizers,omitempty"`
}

// listApplications returns the Applications in the fake cluster, reduced, sorted by namespace then name.
func listApplications(ctx context.Context, c client.Client) ([]Application, error) {
	var list argov1alpha1.ApplicationList
	if err := c.List(ctx, &list); err != nil {
		return nil, err
	}
	apps := make([]Application, 0, len(list.Items))
	for _, item := range list.Items {
		apps = append(apps, Application{
			APIVersion: argov1alpha1.SchemeGroupVersion.String(),
			Kind:       "Application",
			Metadata: ApplicationMetadata{
				Name:        item.Name,
				Namespace:   item.Namespace,
				Labels:      item.Labels,
				Annotations: item.Annotations,
				Finalizers:  item.Finalizers,
			},
			Spec: item.Spec,
		})
	}
	sort.Slice(apps, func(i, j int) bool {
		a, b := apps[i].Metadata, apps[j].Metadata
		return a.Namespace < b.Namespace || (a.Namespace == b.Namespace && a.Name < b.Name)
	})
	return apps, nil
}

// writeApplications prints the Applications as one JSON array or as YAML documents, like `appset render`.
func writeApplications(out io.Writer, apps []Application, format string) error {
	if format == "json" {
		data, err := json.MarshalIndent(apps, "", "  ")
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(out, "%s\n", data)
		return err
	}
	for _, app := range apps {
		data, err := yaml.Marshal(app)
		if err != nil {
			return err
		}
		if _, err := fmt.Fprintf(out, "---\n%s", data); err != nil {
			return err
		}
	}
	return nil
}

// writeReports prints one JSON line per report.
func writeReports(out io.Writer, reports []Report) error {
	encoder := json.NewEncoder(out)
	for _, report := range reports {
		if err := encoder.Encode(report); err != nil {
			return err
		}
	}
	return nil
}
