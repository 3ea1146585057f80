package main

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	kubefake "k8s.io/client-go/kubernetes/fake"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/tools/record"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/argoproj/argo-cd/v3/applicationset/controllers"
	"github.com/argoproj/argo-cd/v3/applicationset/generators"
	appsetmetrics "github.com/argoproj/argo-cd/v3/applicationset/metrics"
	"github.com/argoproj/argo-cd/v3/applicationset/services"
	"github.com/argoproj/argo-cd/v3/applicationset/utils"
	"github.com/argoproj/argo-cd/v3/common"
	argov1alpha1 "github.com/argoproj/argo-cd/v3/pkg/apis/application/v1alpha1"
	"github.com/argoproj/argo-cd/v3/util/db"
	"github.com/argoproj/argo-cd/v3/util/github_app"
	"github.com/argoproj/argo-cd/v3/util/settings"
)

// controllerIndex is the field index the reconciler lists an ApplicationSet's Applications by; the controller
// registers it in SetupWithManager, which a fake client never runs.
const controllerIndex = ".metadata.controller"

// ownerApplicationSet indexes an Application by the name of the ApplicationSet that controls it, as Argo CD does.
func ownerApplicationSet(object client.Object) []string {
	owner := metav1.GetControllerOf(object)
	if owner == nil || owner.APIVersion != argov1alpha1.SchemeGroupVersion.String() || owner.Kind != "ApplicationSet" {
		return nil
	}
	return []string{owner.Name}
}

// defaultProject is Argo CD's `default` AppProject as installed: every source, destination and resource allowed.
func defaultProject() *argov1alpha1.AppProject {
	return &argov1alpha1.AppProject{
		ObjectMeta: metav1.ObjectMeta{Name: "default", Namespace: argoCDNamespace},
		Spec: argov1alpha1.AppProjectSpec{
			SourceRepos:              []string{"*"},
			Destinations:             []argov1alpha1.ApplicationDestination{{Server: "*", Namespace: "*", Name: "*"}},
			ClusterResourceWhitelist: []metav1.GroupKind{{Group: "*", Kind: "*"}},
		},
	}
}

// settingsObjects are an empty argocd-cm and an argocd-secret, which Argo CD's settings manager reads.
func settingsObjects() []runtime.Object {
	labels := map[string]string{"app.kubernetes.io/part-of": "argocd"}
	return []runtime.Object{
		&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: common.ArgoCDConfigMapName, Namespace: argoCDNamespace, Labels: labels}},
		&corev1.Secret{
			ObjectMeta: metav1.ObjectMeta{Name: common.ArgoCDSecretName, Namespace: argoCDNamespace, Labels: labels},
			Data:       map[string][]byte{"server.secretkey": []byte("argocd-render")},
		},
	}
}

// newReconciler wires Argo CD's ApplicationSetReconciler as argocd-applicationset-controller does with default
// flags, except that the cluster is controller-runtime's fake client and client-go's fake clientset (both holding
// the ApplicationSets' world: settings, the default project, the Secrets) and the repo server runs in-process.
func newReconciler(ctx context.Context, appsets []*argov1alpha1.ApplicationSet, secrets []*corev1.Secret, configMaps []*corev1.ConfigMap, ducks []*unstructured.Unstructured, repos *localRepoServer) (*controllers.ApplicationSetReconciler, error) {
	scheme := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(scheme); err != nil {
		return nil, err
	}
	if err := argov1alpha1.AddToScheme(scheme); err != nil {
		return nil, err
	}

	kubeObjects := settingsObjects()
	objects := []client.Object{defaultProject()}
	for _, secret := range secrets {
		kubeObjects = append(kubeObjects, secret.DeepCopy())
		objects = append(objects, secret.DeepCopy())
	}
	// The plugin generator reads its ConfigMap through the controller-runtime client.
	for _, configMap := range configMaps {
		kubeObjects = append(kubeObjects, configMap.DeepCopy())
		objects = append(objects, configMap.DeepCopy())
	}
	for _, appset := range appsets {
		objects = append(objects, appset.DeepCopy())
	}
	kubeClientset := kubefake.NewClientset(kubeObjects...)
	ctrlClient := fake.NewClientBuilder().
		WithScheme(scheme).
		WithObjects(objects...).
		WithStatusSubresource(&argov1alpha1.ApplicationSet{}, &argov1alpha1.Application{}).
		WithIndex(&argov1alpha1.Application{}, controllerIndex, ownerApplicationSet).
		Build()

	settingsManager := settings.NewSettingsManager(ctx, kubeClientset, argoCDNamespace)
	argoDB := db.NewDB(argoCDNamespace, settingsManager, kubeClientset)
	// The controller's defaults: Git submodules on, the old Git file globbing, SCM providers allowed, no root CA.
	argoCDService := services.NewArgoCDService(argoDB, true, repos, false)
	scmConfig := generators.NewSCMConfig("", nil, true, false, github_app.NewAuthCredentials(argoDB.(db.RepoCredsDB)), false)
	// The clusterDecisionResource generator lists its duck-typed resource through the dynamic client, by the
	// resource its ConfigMap names ("kind: placementdecisions"); the fake files each object under the plural
	// client-go guesses from its kind. The fake ignores field selectors: a lookup by name sees every object of
	// the kind in the namespace, so the corpus keeps one object per kind that is looked up by name.
	listKinds := map[schema.GroupVersionResource]string{}
	duckObjects := make([]runtime.Object, 0, len(ducks))
	for _, duck := range ducks {
		resource, _ := meta.UnsafeGuessKindToResource(duck.GroupVersionKind())
		listKinds[resource] = duck.GetKind() + "List"
		duckObjects = append(duckObjects, duck.DeepCopy())
	}
	dynamicClient := dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(), listKinds, duckObjects...)

	return &controllers.ApplicationSetReconciler{
		Client:     ctrlClient,
		Scheme:     scheme,
		Recorder:   &record.FakeRecorder{}, // no Events channel: events are dropped
		Generators: generators.GetGenerators(ctx, ctrlClient, kubeClientset, argoCDNamespace, argoCDService, dynamicClient, scmConfig),
		ArgoDB:     argoDB,
		// No --policy flag: policy sync, and each ApplicationSet may override it.
		Policy:                   utils.Policies[""],
		EnablePolicyOverride:     true,
		KubeClientset:            kubeClientset,
		Renderer:                 &utils.Render{},
		ArgoCDNamespace:          argoCDNamespace,
		ApplicationSetNamespaces: []string{argoCDNamespace},
		Metrics:                  appsetmetrics.NewFakeAppsetMetrics(),
	}, nil
}
