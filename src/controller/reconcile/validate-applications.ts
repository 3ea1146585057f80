import type { V1Secret } from '@kubernetes/client-node';
import { TerminalError } from '../../model/action.js';
import { destinationClusterProblem, indexClusters } from './destination-cluster.js';

/**
 * Argo CD's checks of every generated Application before anything is written (v3.2.6
 * applicationset/controllers/applicationset_controller.go validateGeneratedApplications): unique names, an
 * AppProject that exists in the controller's namespace, a destination that names a known cluster. Argo CD
 * creates the valid Applications and reports the others; this controller refuses the whole reconcile
 * instead (all or nothing), so an ApplicationSet is never half applied.
 */

/** One generated Application Argo CD would refuse, and Argo CD's reason. */
export interface ApplicationProblem {
  readonly application: string;
  readonly message: string;
}

/** What a generated Application is checked by: its name, project and destination. */
export interface ValidatedApplication {
  readonly metadata: { readonly name: string };
  readonly spec: Readonly<Record<string, unknown>>;
}

/** The world the checks consult: which AppProjects exist in the controller's namespace, and the cluster Secrets there. */
export interface ValidationWorld {
  readonly projectExists: (name: string) => boolean;
  /** Argo CD cluster Secrets (any other Secret is ignored); the local cluster is always known. */
  readonly clusterSecrets: readonly V1Secret[];
}

/**
 * When a refused ApplicationSet whose generators ask for no requeue is looked at again: Argo CD's
 * ReconcileRequeueOnValidationError. Events bring the fix sooner (a new cluster Secret or AppProject routes to
 * the refused ApplicationSets); this bounds the window between this reconcile's read and its status write.
 */
export const VALIDATION_RETRY_MS = 3 * 60_000;

/** How many problems a refusal message spells out; the rest are counted (status conditions should stay small). */
const MAX_LISTED = 5;

/** Every generated Application Argo CD would refuse, with Argo CD's message, in the order generated. */
export function findApplicationProblems(
  applicationSetName: string,
  applications: readonly ValidatedApplication[],
  world: ValidationWorld,
): ApplicationProblem[] {
  const clusters = indexClusters(world.clusterSecrets);
  const seen = new Set<string>();
  const problems: ApplicationProblem[] = [];
  for (const app of applications) {
    const application = app.metadata.name;
    const problem = (message: string): void => void problems.push({ application, message });
    // Argo CD checks in this order and reports only the first problem of each Application.
    if (seen.has(application)) {
      problem(`ApplicationSet ${applicationSetName} contains applications with duplicate name: ${application}`);
      continue;
    }
    seen.add(application);
    const project = typeof app.spec['project'] === 'string' ? app.spec['project'] : '';
    if (!world.projectExists(project)) {
      problem(`application references project ${project} which does not exist`);
      continue;
    }
    const destination = destinationClusterProblem(asFields(app.spec['destination']), clusters);
    if (destination !== undefined) problem(`application destination spec is invalid: ${destination}`);
  }
  return problems;
}

/** A rendered field as an object of fields; anything else has none. */
function asFields(value: unknown): Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** The refusal of a whole reconcile because some generated Applications are invalid; it names them and Argo CD's reasons. */
export class InvalidApplicationsError extends TerminalError {
  override readonly name = 'InvalidApplicationsError';
  readonly problems: readonly ApplicationProblem[];

  constructor(problems: readonly ApplicationProblem[], generated: number, options: { requeueAfterMs?: number | undefined } = {}) {
    super(describeProblems(problems, generated), options);
    this.problems = problems;
  }
}

/** `1 of 3 generated Applications is invalid ...: Application a: <Argo CD's message>; ...`, bounded. */
export function describeProblems(problems: readonly ApplicationProblem[], generated: number): string {
  const one = problems.length === 1;
  const listed = problems
    .slice(0, MAX_LISTED)
    .map((p) => `Application ${p.application}: ${p.message}`)
    .join('; ');
  const more = problems.length > MAX_LISTED ? ` (and ${problems.length - MAX_LISTED} more)` : '';
  return (
    `${problems.length} of ${generated} generated Applications ${one ? 'is' : 'are'} invalid; ` +
    `no Application of this ApplicationSet is created, updated or deleted until ${one ? 'it is' : 'they are'} fixed: ${listed}${more}`
  );
}

/** Throws an {@link InvalidApplicationsError} when any generated Application is invalid (all or nothing). */
export function assertApplicationsValid(
  applicationSetName: string,
  applications: readonly ValidatedApplication[],
  world: ValidationWorld,
  options: { requeueAfterMs?: number | undefined } = {},
): void {
  const problems = findApplicationProblems(applicationSetName, applications, world);
  if (problems.length > 0) throw new InvalidApplicationsError(problems, applications.length, options);
}
