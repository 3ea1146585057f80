package main

import (
	"context"
	"sort"
	"strings"
	"sync"

	log "github.com/sirupsen/logrus"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/argoproj/argo-cd/v3/applicationset/controllers"
	"github.com/argoproj/argo-cd/v3/applicationset/utils"
	argov1alpha1 "github.com/argoproj/argo-cd/v3/pkg/apis/application/v1alpha1"
)

// validationLogPrefix starts the message Reconcile logs, with an "application" field, for each invalid Application.
const validationLogPrefix = "validation error found during application validation: "

// Report is what stderr says about one ApplicationSet: why Argo CD refused it, which Applications it left out.
type Report struct {
	ApplicationSet string `json:"applicationSet"`
	// Errors are the messages of the ErrorOccurred condition when Argo CD created nothing for a reason other than
	// Application validation (generation, templating, an API error).
	Errors []string `json:"errors,omitempty"`
	// InvalidApplications maps namespace/name to the ApplicationValidationError of each Application left out.
	InvalidApplications map[string]string `json:"invalidApplications,omitempty"`
	// Ignored says why the controller would not look at the ApplicationSet at all.
	Ignored string `json:"ignored,omitempty"`
}

// validationLog collects the per-Application validation messages Reconcile logs: its status condition keeps only
// the last one ("... (and N more)"), the log line has each.
type validationLog struct {
	mu    sync.Mutex
	byApp map[string]string
}

// Levels is the one level the validation messages are logged at.
func (h *validationLog) Levels() []log.Level { return []log.Level{log.ErrorLevel} }

// Fire keeps a validation message by Application.
func (h *validationLog) Fire(entry *log.Entry) error {
	message, ok := strings.CutPrefix(entry.Message, validationLogPrefix)
	app, named := entry.Data["application"].(string)
	if ok && named {
		h.mu.Lock()
		defer h.mu.Unlock()
		h.byApp[app] = message
	}
	return nil
}

// take returns the messages collected since the last call.
func (h *validationLog) take() map[string]string {
	h.mu.Lock()
	defer h.mu.Unlock()
	taken := h.byApp
	h.byApp = map[string]string{}
	return taken
}

// reconcileAll runs Reconcile once for each ApplicationSet, in file order, and reports the refused and partly
// refused ones. Applications of earlier ApplicationSets are in the fake cluster when later ones reconcile, as
// they would be in a real one.
func reconcileAll(ctx context.Context, r *controllers.ApplicationSetReconciler, appsets []*argov1alpha1.ApplicationSet) ([]Report, error) {
	hook := &validationLog{byApp: map[string]string{}}
	log.AddHook(hook)
	var reports []Report
	for _, appset := range appsets {
		key := types.NamespacedName{Namespace: appset.Namespace, Name: appset.Name}
		// The controller's event filter drops ApplicationSets outside --applicationset-namespaces before Reconcile.
		if !utils.IsNamespaceAllowed(r.ApplicationSetNamespaces, appset.Namespace) {
			reports = append(reports, Report{ApplicationSet: key.String(), Ignored: "namespace " + appset.Namespace + " is not an ApplicationSet namespace"})
			continue
		}
		if _, err := r.Reconcile(ctx, ctrl.Request{NamespacedName: key}); err != nil {
			// Reconcile also records such errors in the status condition, read below; a real controller would retry.
			log.WithError(err).Debug("reconcile returned an error")
		}
		reconciled := &argov1alpha1.ApplicationSet{}
		if err := r.Get(ctx, key, reconciled); err != nil {
			return nil, err
		}
		if report, refused := conditionReport(key.String(), reconciled, hook.take()); refused {
			reports = append(reports, report)
		}
	}
	return reports, nil
}

// conditionReport reads the ErrorOccurred condition of a reconciled ApplicationSet; false when there is none.
func conditionReport(key string, appset *argov1alpha1.ApplicationSet, invalid map[string]string) (Report, bool) {
	report := Report{ApplicationSet: key}
	for _, condition := range appset.Status.Conditions {
		if condition.Type != argov1alpha1.ApplicationSetConditionErrorOccurred || condition.Status != argov1alpha1.ApplicationSetConditionStatusTrue {
			continue
		}
		if condition.Reason != argov1alpha1.ApplicationSetReasonApplicationValidationError {
			report.Errors = append(report.Errors, condition.Message)
		} else if len(invalid) == 0 {
			// The log line was not found (a renamed message?): the condition still says something was refused.
			report.Errors = append(report.Errors, condition.Message)
		}
	}
	if len(invalid) > 0 {
		report.InvalidApplications = invalid
	}
	sort.Strings(report.Errors)
	return report, len(report.Errors) > 0 || len(report.InvalidApplications) > 0
}
