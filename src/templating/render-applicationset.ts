import { hash } from 'node:crypto';
import type { ParamSet } from '../model/params.js';
import {
  DEFAULT_RENDER_LIMITS,
  MISSING_PARAMETERS_ANNOTATION,
  type GeneratedApplication,
  type ApplicationSetForRender,
  type ApplicationTemplate,
  type GeneratorOutput,
  type RenderedApplication,
  type RenderLimits,
} from '../model/applicationset-types.js';
import { TemplateEngine, type TemplateStyle } from './engine.js';
import { applyStrategicPatch, mergeGeneratorTemplate } from './template-merge.js';
import { renderField, renderTree } from './render-tree.js';
import { RenderError } from './renderer.js';
import { RenderBudget, type MissingMode, type RenderScope } from './scope.js';
import { validateApplication } from './validate.js';
import { isPlainMap } from './plain-values.js';
import { parseYaml11 } from '../model/yaml11.js';
import { normalizeApplicationSpec } from './normalize-application.js';
import { TerminalError } from '../model/action.js';
import type { RenderMemo } from './render-memo.js';
import { plainDataKey } from './plain-data-key.js';

/** Turns an ApplicationSet's parameter sets into validated Applications, or one error naming what to fix. */

/** An error in one parameter set's Application; says which generator and parameter set. */
export class ApplicationRenderError extends RenderError {
  override readonly name = 'ApplicationRenderError';
}

/**
 * A templatePatch that changes `spec.project`: a refusal (the project is the template's, and a tenant's
 * security boundary), not a template error a retry could fix. Argo CD silently resets the project instead.
 */
export class TemplatePatchProjectError extends TerminalError {
  override readonly name = 'TemplatePatchProjectError';
}

const RESOURCES_FINALIZER = 'resources-finalizer.argocd.argoproj.io';
const GO_TEMPLATE_OPTIONS = new Set(['missingkey=error', 'missingkey=zero', 'missingkey=default', 'missingkey=invalid']);

/** The missing-parameter mode an ApplicationSet asked for; a bad switch is an error naming it. */
export function missingModeOf(appset: ApplicationSetForRender): MissingMode {
  const options = appset.spec.goTemplateOptions ?? [];
  for (const option of options) {
    if (!GO_TEMPLATE_OPTIONS.has(option))
      throw new RenderError(`unknown option '${option}'; supported: ${[...GO_TEMPLATE_OPTIONS].join(', ')}`, 'spec.goTemplateOptions');
  }
  if (appset.spec.goTemplate === true && options.includes('missingkey=error')) return 'error';
  const annotation = appset.metadata.annotations?.[MISSING_PARAMETERS_ANNOTATION];
  if (annotation === undefined || annotation === 'error') return 'strict';
  if (annotation === 'keep') return 'keep';
  throw new RenderError(`annotation ${MISSING_PARAMETERS_ANNOTATION} must be 'error' (the default) or 'keep', not '${annotation}'`, 'metadata.annotations');
}

/** A short, bounded description of a parameter set for messages. */
function describeParams(generatorIndex: number, paramIndex: number, params: ParamSet): string {
  const preview = JSON.stringify(params);
  const shown = preview.length > 160 ? `${preview.slice(0, 157)}...` : preview;
  return `spec.generators[${generatorIndex}] parameter set ${paramIndex} ${shown}`;
}

/** The template of one generator: its own `template` merged over `spec.template`. */
function templateFor(appset: ApplicationSetForRender, generatorIndex: number): ApplicationTemplate {
  const generator = appset.spec.generators[generatorIndex];
  if (!generator) throw new RenderError(`there is no generator ${generatorIndex}`, 'spec.generators');
  const override = Object.values(generator)
    .map((g) => (isPlainMap(g) ? g['template'] : undefined))
    .find(isPlainMap);
  return (override ? mergeGeneratorTemplate(override, appset.spec.template) : appset.spec.template) as ApplicationTemplate;
}

/** Everything one ApplicationSet's renders share. */
interface RenderContext {
  appset: ApplicationSetForRender;
  engine: TemplateEngine;
  style: TemplateStyle;
  scope: RenderScope;
  patchScope: RenderScope;
  memo: RenderMemo | undefined;
}

/**
 * Everything besides the parameter set that {@link renderOne} reads, as one text: a render with the same
 * template key and parameter set gives the same Application (the memo's key). Anything renderOne starts
 * reading must be added here, or the memo would answer a changed ApplicationSet with an old render.
 */
function templateKey(ctx: RenderContext, template: ApplicationTemplate): string | undefined {
  const text = plainDataKey([
    ctx.style,
    ctx.scope.missing,
    ctx.appset.metadata.namespace,
    ctx.appset.spec.syncPolicy?.preserveResourcesOnDeletion,
    ctx.appset.spec.templatePatch,
    template,
  ]);
  return text === undefined ? undefined : hash('sha256', text, 'base64');
}

/** Renders, patches, namespaces and validates the Application of one parameter set. */
function renderOne(ctx: RenderContext, template: ApplicationTemplate, params: ParamSet): GeneratedApplication {
  const render = (scope: RenderScope) => (text: string) => ctx.engine.render(ctx.style, text, params, scope);
  const source = { metadata: template.metadata ?? {}, spec: template.spec ?? {} };
  // Argo CD returns the template untouched for a parameter set without parameters (a list element `{}`):
  // nothing is rendered and no finalizer added. The patch and validation still apply.
  const empty = Object.keys(params).length === 0;
  const rendered = (empty ? structuredClone(source) : renderTree(source, undefined, render(ctx.scope))) as {
    metadata: Record<string, unknown>;
    spec: Record<string, unknown>;
  };
  let app: Record<string, unknown> = { apiVersion: 'argoproj.io/v1alpha1', kind: 'Application', ...rendered };
  const finalizers = rendered.metadata['finalizers'];
  if (!empty && !ctx.appset.spec.syncPolicy?.preserveResourcesOnDeletion && (!Array.isArray(finalizers) || finalizers.length === 0)) {
    rendered.metadata['finalizers'] = [RESOURCES_FINALIZER];
  }
  if (ctx.appset.spec.templatePatch !== undefined)
    app = patched(
      ctx,
      app,
      renderField('templatePatch', () => render(ctx.patchScope)(ctx.appset.spec.templatePatch ?? '')),
    );
  const metadata = isPlainMap(app['metadata']) ? app['metadata'] : {};
  app['metadata'] = { ...metadata, namespace: ctx.appset.metadata.namespace };
  validateApplication(app);
  // Stored as Argo CD stores it (its Go structs' JSON): the same objects whichever controller wrote them.
  if (isPlainMap(app['spec'])) app['spec'] = normalizeApplicationSpec(app['spec']);
  return app as unknown as GeneratedApplication;
}

/** Parses the rendered patch and merges it; the project is fixed by the template, never by the patch. */
function patched(ctx: RenderContext, app: Record<string, unknown>, patchText: string): Record<string, unknown> {
  let patch: unknown;
  try {
    // Argo CD reads the patch with sigs.k8s.io/yaml: YAML 1.1, so `prune: yes` is true.
    patch = parseYaml11(patchText, { maxAliasCount: 100, uniqueKeys: false });
  } catch (error) {
    throw new RenderError(`the rendered patch is not valid YAML: ${(error as Error).message.split('\n')[0] ?? ''}`, 'templatePatch');
  }
  if (patch === undefined || patch === null) return app;
  if (!isPlainMap(patch)) throw new RenderError('the rendered patch must be a YAML mapping (like the Application: metadata, spec)', 'templatePatch');
  const result = applyStrategicPatch(app, patch) as Record<string, unknown>;
  const projectOf = (a: Record<string, unknown>): unknown => (isPlainMap(a['spec']) ? a['spec']['project'] : undefined);
  if (projectOf(result) !== projectOf(app))
    throw new TemplatePatchProjectError('templatePatch: templatePatch cannot change spec.project; set it in spec.template');
  return result;
}

/** {@link renderLocated} answered from the memo when this template and parameter set were rendered before. */
function renderRemembered(
  ctx: RenderContext,
  template: ApplicationTemplate,
  templateDigest: string | undefined,
  params: ParamSet,
  where: () => string,
): GeneratedApplication {
  const paramsText = ctx.memo && templateDigest !== undefined ? plainDataKey(params) : undefined;
  if (!ctx.memo || templateDigest === undefined || paramsText === undefined) return renderLocated(ctx, template, params, where);
  // Digests keep the memo's keys small (the template's text would otherwise be held once per Application);
  // the template's digest has a fixed length, so the parameter set's text can never reach into it.
  // One-shot hash: a Hash object per Application cost three times as much (about 4 µs more each).
  const key = hash('sha256', templateDigest + paramsText, 'base64');
  const remembered = ctx.memo.get(key);
  if (remembered) {
    // A remembered render still counts against this ApplicationSet's output limit, as rendering it would.
    ctx.scope.budget.chargeLength(remembered.chargedChars);
    return remembered.application;
  }
  const before = ctx.scope.budget.usedChars;
  const application = renderLocated(ctx, template, params, where);
  return ctx.memo.remember(key, application, ctx.scope.budget.usedChars - before);
}

/** {@link renderOne}, its errors prefixed with `where()` (the generator and parameter set, described only on error). */
function renderLocated(ctx: RenderContext, template: ApplicationTemplate, params: ParamSet, where: () => string): GeneratedApplication {
  try {
    return renderOne(ctx, template, params);
  } catch (error) {
    if (error instanceof TemplatePatchProjectError) throw new TemplatePatchProjectError(`${where()}: ${error.message}`);
    if (!(error instanceof RenderError)) throw error;
    throw new ApplicationRenderError(`${where()}: ${error.message}`, '', error);
  }
}

/**
 * Renders every parameter set of every generator into an Application. All or nothing: the first error
 * (a missing parameter, an invalid name, two parameter sets producing the same name, a limit) is thrown
 * as a RenderError naming the generator, the parameter set and the field, and nothing is returned; a
 * templatePatch that changes the project is a {@link TemplatePatchProjectError}. With `uniqueNames: false`
 * two parameter sets may render one name (the controller's validation reports it, as Argo CD's does).
 * With a `memo`, a parameter set rendered before with the same template is answered from it: the
 * Applications it returns are then deep-frozen and shared with later renders.
 */
export function renderApplicationSet(
  appset: ApplicationSetForRender,
  outputs: readonly GeneratorOutput[],
  options: { engine?: TemplateEngine; limits?: RenderLimits; uniqueNames?: boolean; memo?: RenderMemo } = {},
): RenderedApplication[] {
  const checkNames = options.uniqueNames ?? true;
  const limits = options.limits ?? DEFAULT_RENDER_LIMITS;
  const budget = new RenderBudget(limits.timeLimitMs, limits.maxOutputBytes);
  const missing = missingModeOf(appset);
  const ctx: RenderContext = {
    appset,
    engine: options.engine ?? new TemplateEngine(),
    style: appset.spec.goTemplate ? 'goTemplate' : 'fasttemplate',
    scope: { missing, patch: false, budget },
    patchScope: { missing, patch: true, budget },
    memo: options.memo && options.memo.size > 0 ? options.memo : undefined,
  };
  const results: RenderedApplication[] = [];
  const byName = new Map<string, { generatorIndex: number; paramIndex: number; params: ParamSet }>();
  for (const { generatorIndex, params } of outputs) {
    const template = templateFor(appset, generatorIndex);
    const templateDigest = ctx.memo ? templateKey(ctx, template) : undefined;
    params.forEach((paramSet, paramIndex) => {
      const application = renderRemembered(ctx, template, templateDigest, paramSet, () => describeParams(generatorIndex, paramIndex, paramSet));
      const earlier = checkNames ? byName.get(application.metadata.name) : undefined;
      if (earlier) {
        const first = describeParams(earlier.generatorIndex, earlier.paramIndex, earlier.params);
        throw new ApplicationRenderError(
          `two parameter sets render the same Application name '${application.metadata.name}': ${first} and ${describeParams(generatorIndex, paramIndex, paramSet)}`,
          'metadata.name',
        );
      }
      byName.set(application.metadata.name, { generatorIndex, paramIndex, params: paramSet });
      results.push({ application, generatorIndex, paramIndex });
    });
  }
  return results;
}
