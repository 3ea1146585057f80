import type { Logger } from 'pino';
import type { Generated } from './generate.js';
import { generate } from './generate.js';
import type { LiveFieldRules } from '../plan/apply-intent.js';
import type { Application, ApplicationSetIdentity } from '../../model/objects.js';
import type { RenderedApplication } from '../../model/applicationset-types.js';
import { renderApplicationSet } from '../../templating/render-applicationset.js';
import { checkTenantApplications, type TenantContext } from '../../tenancy/tenant-policy.js';
import { identityOf, liveFieldRulesOf, type ApplicationSetObject } from './applicationset.js';
import { desiredApplication } from './desired-application.js';
import { ReconcileFailure } from './failure.js';
import { freshRefsGitReader } from './fresh-git.js';
import { admit, checkQuotas, tenantScoped, validateApplications, type CheckDeps } from './reconcile-checks.js';
import { VALIDATION_RETRY_MS } from './validate-applications.js';
import { Reason } from '../status/conditions.js';

/** What a reconcile knows before it plans: the tenant, the generated and rendered Applications and the live-field rules. */
export interface Prepared {
  readonly tenant: TenantContext | undefined;
  readonly generated: Generated;
  readonly rendered: readonly RenderedApplication[];
  readonly rules: LiveFieldRules;
  readonly identity: ApplicationSetIdentity;
  /** The Applications to write: in the ApplicationSet's namespace, controlled by it. */
  readonly desired: readonly Application[];
}

/** What {@link prepareReconcile} needs besides the ApplicationSet. */
export interface PrepareContext {
  readonly signal: AbortSignal;
  readonly log: Logger;
  /** Resolve Git revisions against the remote as it is now (the refresh annotation). */
  readonly freshRefs: boolean;
  /** How many Applications the namespace holds, and how many of them this ApplicationSet owns (for the quotas). */
  readonly namespaceCount: () => { readonly inNamespace: number; readonly owned: number };
}

/** What the first half of {@link prepareReconcile} gives: the tenant and the generators' output. */
export interface PreparedGeneration {
  readonly tenant: TenantContext | undefined;
  readonly generated: Generated;
}

/**
 * The stages of a reconcile before its plan, in the controller's order, each failure a {@link ReconcileFailure}
 * with its condition reason: tenant admission, generators, templates, the tenant's rules, Argo CD's validation,
 * the live-field rules, the quotas. Shared by the reconciler and `appset diff`, so both refuse alike.
 */
export async function prepareReconcile(deps: CheckDeps, appset: ApplicationSetObject, ctx: PrepareContext): Promise<Prepared> {
  return prepareApplications(deps, appset, ctx, await prepareGeneration(deps, appset, ctx));
}

/** The first half: tenant admission and the generators (the reconciler may stop after it when nothing changed). */
export async function prepareGeneration(deps: CheckDeps, appset: ApplicationSetObject, ctx: PrepareContext): Promise<PreparedGeneration> {
  const stage = stageOf(appset);
  const tenant = await stage(Reason.ValidationError, false, () => admit(deps, appset));
  const scoped = tenant ? tenantScoped(deps, tenant) : deps;
  const generateDeps = ctx.freshRefs ? { ...scoped, git: freshRefsGitReader(scoped.git) } : scoped;
  const generated = await stage(Reason.ParamsGenerationError, false, () => generate(appset, generateDeps, ctx.signal, ctx.log));
  return { tenant, generated };
}

/** The second half: templates, the tenant's rules, Argo CD's validation, the live-field rules and the quotas. */
export async function prepareApplications(
  deps: CheckDeps,
  appset: ApplicationSetObject,
  ctx: PrepareContext,
  { tenant, generated }: PreparedGeneration,
): Promise<Prepared> {
  const stage = stageOf(appset);
  // A templatePatch refused for the parameters it was given is looked at again at the generators' interval (or
  // Argo CD's 3 minutes): the next commit may fix it. The replica's one template engine and render memo: its
  // compiled templates and unchanged parameter sets' renders outlive this reconcile. Duplicate names are left to
  // Argo CD's validation below, with its reason and message.
  const renderStage = stageOf(appset, generated.requeueAfterMs ?? VALIDATION_RETRY_MS);
  const rendered = await renderStage(Reason.RenderTemplateParamsError, true, () =>
    renderApplicationSet(appset, generated.outputs, { engine: deps.engine, uniqueNames: false, ...(deps.renderMemo ? { memo: deps.renderMemo } : {}) }),
  );
  const applications = rendered.map((r) => r.application);
  if (tenant) await stage(Reason.ValidationError, true, () => checkTenantApplications(tenant, applications));
  await stage(Reason.ValidationError, true, () => validateApplications(deps, appset, rendered, generated.requeueAfterMs, ctx.log));
  const rules = await stage(Reason.ValidationError, true, () => liveFieldRulesOf(appset));
  const identity = identityOf(appset);
  if (tenant) await stage(Reason.ValidationError, true, () => checkQuotas(deps, { namespace: identity.namespace, ...ctx.namespaceCount() }, rendered.length));
  return { tenant, generated, rendered, rules, identity, desired: rendered.map((r) => desiredApplication(r.application, identity)) };
}

/** Runs one stage, turning its failure into a {@link ReconcileFailure} with the stage's condition reason. */
function stageOf(appset: ApplicationSetObject, requeueAfterMs?: number) {
  return async <T>(reason: string, parametersGenerated: boolean, action: () => T | Promise<T>): Promise<T> => {
    try {
      return await action();
    } catch (error) {
      throw new ReconcileFailure({ reason, parametersGenerated, requeueAfterMs }, error, appset);
    }
  };
}
