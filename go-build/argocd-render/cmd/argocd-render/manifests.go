package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"

	argov1alpha1 "github.com/argoproj/argo-cd/v3/pkg/apis/application/v1alpha1"
)

// argoCDNamespace is the namespace of the simulated Argo CD: its controller, settings, projects and cluster Secrets.
const argoCDNamespace = "argocd"

// undecodable is an ApplicationSet document the API server would reject because it does not fit Argo CD's types.
type undecodable struct {
	key string
	err error
}

// readDocuments splits a multi-document YAML file into its non-empty documents, as kubectl does.
func readDocuments(file string) ([][]byte, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	reader := utilyaml.NewYAMLReader(bufio.NewReader(f))
	var docs [][]byte
	for {
		doc, err := reader.Read()
		if errors.Is(err, io.EOF) {
			return docs, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		if len(bytes.TrimSpace(doc)) > 0 {
			docs = append(docs, doc)
		}
	}
}

// header reads the kind, name and namespace of a document without committing to its type.
func header(file string, index int, doc []byte) (metav1.PartialObjectMetadata, error) {
	var meta metav1.PartialObjectMetadata
	if err := yaml.Unmarshal(doc, &meta); err != nil {
		return meta, fmt.Errorf("%s: document %d is not valid YAML: %w", file, index+1, err)
	}
	return meta, nil
}

// readApplicationSets returns the ApplicationSet documents of the files in order, defaulting the namespace to
// argocd as `kubectl apply -n argocd` would; documents that do not decode are returned apart, as refusals.
func readApplicationSets(files []string) ([]*argov1alpha1.ApplicationSet, []undecodable, error) {
	var appsets []*argov1alpha1.ApplicationSet
	var refused []undecodable
	for _, file := range files {
		docs, err := readDocuments(file)
		if err != nil {
			return nil, nil, err
		}
		for i, doc := range docs {
			meta, err := header(file, i, doc)
			if err != nil {
				return nil, nil, err
			}
			if meta.Kind != "ApplicationSet" {
				continue
			}
			namespace := meta.Namespace
			if namespace == "" {
				namespace = argoCDNamespace
			}
			appset := &argov1alpha1.ApplicationSet{}
			if err := yaml.Unmarshal(doc, appset); err != nil {
				refused = append(refused, undecodable{key: namespace + "/" + meta.Name, err: err})
				continue
			}
			appset.Namespace = namespace
			appsets = append(appsets, appset)
		}
	}
	return appsets, refused, nil
}

// readKind returns the documents of one kind in a YAML file (the --clusters file's Secrets or ConfigMaps),
// decoded as T, in the argocd namespace unless they name another; documents of other kinds are skipped.
func readKind[T any, PT interface {
	*T
	metav1.Object
}](file, kind string) ([]PT, error) {
	if file == "" {
		return nil, nil
	}
	docs, err := readDocuments(file)
	if err != nil {
		return nil, err
	}
	var objects []PT
	for i, doc := range docs {
		meta, err := header(file, i, doc)
		if err != nil {
			return nil, err
		}
		if meta.Kind != kind {
			continue
		}
		object := PT(new(T))
		if err := yaml.Unmarshal(doc, object); err != nil {
			return nil, fmt.Errorf("%s: document %d is not a %s: %w", file, i+1, kind, err)
		}
		if object.GetNamespace() == "" {
			object.SetNamespace(argoCDNamespace)
		}
		objects = append(objects, object)
	}
	return objects, nil
}

// readSecrets returns the Secrets of a YAML file with stringData folded into data (the API server does that on
// write; the fake clients do not), in the argocd namespace unless they name another.
func readSecrets(file string) ([]*corev1.Secret, error) {
	secrets, err := readKind[corev1.Secret](file, "Secret")
	if err != nil {
		return nil, err
	}
	for _, secret := range secrets {
		for key, value := range secret.StringData {
			if secret.Data == nil {
				secret.Data = map[string][]byte{}
			}
			secret.Data[key] = []byte(value)
		}
		secret.StringData = nil
	}
	return secrets, nil
}

// readDuckObjects reads the documents of the --clusters file that are neither Secrets nor ConfigMaps: the
// duck-typed resources clusterDecisionResource generators read, in the argocd namespace unless they name another.
func readDuckObjects(file string) ([]*unstructured.Unstructured, error) {
	if file == "" {
		return nil, nil
	}
	docs, err := readDocuments(file)
	if err != nil {
		return nil, err
	}
	var objects []*unstructured.Unstructured
	for i, doc := range docs {
		meta, err := header(file, i, doc)
		if err != nil {
			return nil, err
		}
		if meta.Kind == "" || meta.APIVersion == "" || meta.Kind == "Secret" || meta.Kind == "ConfigMap" {
			continue
		}
		object := &unstructured.Unstructured{}
		if err := yaml.Unmarshal(doc, &object.Object); err != nil {
			return nil, fmt.Errorf("%s: document %d is not an object: %w", file, i+1, err)
		}
		if object.GetNamespace() == "" {
			object.SetNamespace(argoCDNamespace)
		}
		objects = append(objects, object)
	}
	return objects, nil
}
