import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { V1ConfigMap, V1Secret } from '@kubernetes/client-node';
import { pino } from 'pino';
import { parseAllYaml11Documents } from '../model/yaml11.js';
import type { ApplicationSetObject } from '../controller/reconcile/applicationset.js';
import { generate, type GenerateDeps } from '../controller/reconcile/generate.js';
import type { GitReader } from '../git/git-reader.js';
import { createGeneratorRegistry } from '../generators/registry.js';
import { RepoCache } from '../git/repo-cache.js';
import { TemplateEngine } from '../templating/engine.js';
import { renderApplicationSet } from '../templating/render-applicationset.js';
import type { GeneratedApplication } from '../model/applicationset-types.js';
import type { ScmAccess } from '../scm/access.js';
import { GitHubAppTokens } from '../scm/github-app.js';
import { createScmAccess } from '../scm/scm-access.js';
import type { PluginAccess } from '../scm/plugin/access.js';
import { createPluginAccess } from '../scm/plugin/plugin-access.js';
import { platformPluginPolicy } from '../tenancy/plugin-policy.js';
import { MAX_PLUGIN_RESPONSE_BYTES, MAX_PLUGIN_TIMEOUT_MS } from '../app/plugins.js';

/** The controller's namespace `appset render` assumes, as Argo CD installs it. */
const RENDER_NAMESPACE = 'argocd';
import { SharedAnswers } from '../scm/shared-answers.js';
import { platformScmPolicy } from '../tenancy/scm-policy.js';
import { secretTypeOf } from '../model/secrets.js';
import { AppsetError } from '../model/errors.js';
import { assertApplicationsValid } from '../controller/reconcile/validate-applications.js';
import { renderProjects } from './render-projects.js';
import { renderDecisionResources, type FileObject } from './render-decision-resources.js';

/** What `appset render` reads. */
export interface RenderInput {
  /** ApplicationSet manifests (multi-document YAML). */
  readonly files: readonly string[];
  /** `repoURL` → local repository path: generators read the local repository instead. */
  readonly repos: ReadonlyMap<string, string>;
  /** Argo CD cluster Secrets for the clusters generator (and SCM and plugin token Secrets). */
  readonly clusters: readonly V1Secret[];
  /** Plugin and clusterDecisionResource generator ConfigMaps (of the controller's namespace, `argocd`), from the same file. */
  readonly configMaps?: readonly V1ConfigMap[];
  /** The duck-typed objects clusterDecisionResource generators read (the file's other documents). */
  readonly decisionObjects?: readonly FileObject[];
}

/** An ApplicationSet that could not be rendered, named in the message. */
export class RenderCommandError extends AppsetError {
  override readonly name = 'RenderCommandError';
}

/**
 * The documents of a YAML file as plain values. Anything that is not YAML, or that the YAML library
 * refuses to expand (an alias bomb: too many aliases for the document's size), is an error naming the
 * file and the document.
 */
export function readYamlDocuments(file: string): unknown[] {
  return parseYamlDocuments(readFileSync(file, 'utf8'), file);
}

/** The documents of YAML `text` read from `file` (named in errors), as {@link readYamlDocuments} reads them. */
export function parseYamlDocuments(text: string, file: string): unknown[] {
  return parseAllYaml11Documents(text).map((doc, index) => {
    const where = `${file}: document ${index + 1}`;
    if (doc.errors.length > 0) throw new RenderCommandError(`${where} is not valid YAML: ${doc.errors[0]?.message ?? ''}`);
    try {
      return doc.toJS() as unknown;
    } catch (error) {
      // The library throws a ReferenceError for excessive aliases; to the user it is a bad file, not a bug.
      throw new RenderCommandError(`${where} cannot be read: ${error instanceof Error ? error.message : String(error)}`);
    }
  });
}

/** Reads every ApplicationSet document of `files`; anything that is not YAML is an error naming the file. */
export function readApplicationSets(files: readonly string[]): ApplicationSetObject[] {
  return applicationSetsIn(files.flatMap(readYamlDocuments));
}

/** The ApplicationSet documents among `documents`, in `defaultNamespace` (the controller's, `argocd`) unless they name one. */
export function applicationSetsIn(documents: readonly unknown[], defaultNamespace = RENDER_NAMESPACE): ApplicationSetObject[] {
  return documents.flatMap((doc) => {
    const object = doc as { kind?: string; metadata?: { name?: string; namespace?: string } } | null;
    if (object?.kind !== 'ApplicationSet') return [];
    const metadata = { uid: '', resourceVersion: '', ...object.metadata, namespace: object.metadata?.namespace ?? defaultNamespace };
    return [{ ...object, metadata } as unknown as ApplicationSetObject];
  });
}

/** Reads cluster Secrets from YAML files (`data` base64 or `stringData`). */
export function readClusterSecrets(file: string | undefined): V1Secret[] {
  if (!file) return [];
  return readYamlDocuments(file)
    .map((doc) => doc as V1Secret | null)
    .filter((secret): secret is V1Secret => secret?.kind === 'Secret');
}

/** The ConfigMaps of the same file: plugin generator ConfigMaps. */
export function readConfigMaps(file: string | undefined): V1ConfigMap[] {
  if (!file) return [];
  return readYamlDocuments(file)
    .map((doc) => doc as V1ConfigMap | null)
    .filter((configMap): configMap is V1ConfigMap => configMap?.kind === 'ConfigMap');
}

/** The documents of the same file that are neither Secrets nor ConfigMaps but Kubernetes objects: duck-typed resources. */
export function readDecisionObjects(file: string | undefined): FileObject[] {
  if (!file) return [];
  return readYamlDocuments(file)
    .map((doc) => doc as FileObject | null)
    .filter((o): o is FileObject => typeof o?.apiVersion === 'string' && typeof o.kind === 'string' && o.kind !== 'Secret' && o.kind !== 'ConfigMap');
}

/** A GitReader that reads mapped repository URLs from local repositories. */
export function mappedGit(reader: GitReader, repos: ReadonlyMap<string, string>): GitReader {
  const to = (url: string): string => {
    const local = repos.get(url);
    return local === undefined ? url : pathToFileURL(resolve(local)).href;
  };
  return {
    resolveRevision: (url, revision, signal, options) => reader.resolveRevision(to(url), revision, signal, options),
    listDirectories: (url, commit, signal) => reader.listDirectories(to(url), commit, signal),
    listFiles: (url, commit, signal) => reader.listFiles(to(url), commit, signal),
    readFile: (url, commit, path, signal) => reader.readFile(to(url), commit, path, signal),
  };
}

/**
 * Runs the generators and templates of every ApplicationSet in the files, through the controller's own
 * code path, and returns the Applications sorted by namespace then name. All or nothing: the first
 * error throws, naming the ApplicationSet, and so does an invalid generated Application (an AppProject
 * other than `default` and the files' own, a destination that is neither a `--clusters` Secret nor the local cluster).
 */
export async function renderFiles(input: RenderInput): Promise<GeneratedApplication[]> {
  const appsets = readApplicationSets(input.files);
  const projects = renderProjects(input.files.flatMap(readYamlDocuments));
  const cacheRoot = mkdtempSync(join(tmpdir(), 'appset-render-'));
  const deps = renderDeps(mappedGit(new RepoCache({ root: cacheRoot }), input.repos), input.clusters, input.configMaps ?? [], input.decisionObjects ?? []);
  const log = pino({ level: 'silent' });
  try {
    const applications: GeneratedApplication[] = [];
    for (const appset of appsets) {
      const name = `ApplicationSet ${appset.metadata.namespace}/${appset.metadata.name}`;
      try {
        const generated = await generate(appset, deps, new AbortController().signal, log);
        const rendered = renderApplicationSet(appset, generated.outputs, { engine: deps.engine }).map((r) => r.application);
        // The controller's checks of generated Applications, against the --clusters Secrets (and the local cluster).
        assertApplicationsValid(appset.metadata.name, rendered, { projectExists: (project) => projects.has(project), clusterSecrets: input.clusters });
        applications.push(...rendered);
      } catch (error) {
        throw new RenderCommandError(`${name}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    const order = (app: GeneratedApplication): string => `${app.metadata.namespace}\u0000${app.metadata.name}`;
    return applications.sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0));
  } finally {
    rmSync(cacheRoot, { recursive: true, force: true });
  }
}

/** What the generators of `appset render` (and `appset diff`) read through: `git`, and the `--clusters` file's Secrets, ConfigMaps and duck-typed objects. */
export function renderDeps(
  git: GitReader,
  clusters: readonly V1Secret[],
  configMaps: readonly V1ConfigMap[],
  decisionObjects: readonly FileObject[] = [],
): GenerateDeps {
  return {
    registry: createGeneratorRegistry(),
    git,
    engine: new TemplateEngine(),
    clusterSecrets: () => clusters,
    scm: renderScmAccess(clusters),
    plugins: renderPluginAccess(clusters, configMaps),
    decisionResources: renderDecisionResources(configMaps, decisionObjects, RENDER_NAMESPACE),
  };
}

/**
 * The SCM access of `appset render`: the platform's rules, credentials from the SCM Secrets in the
 * `--clusters` file (so a pull request or SCM provider generator lists what the controller would list).
 */
function renderScmAccess(secrets: readonly V1Secret[]): ScmAccess {
  const scmSecrets = secrets.filter((s) => ['scm-creds', 'repository', 'repo-creds'].includes(secretTypeOf(s) ?? ''));
  return createScmAccess({
    policy: platformScmPolicy({ enabled: true, allowedApiUrls: [] }),
    secrets: () => scmSecrets,
    namespace: '(the --clusters file)',
    configMapValue: () => Promise.resolve(undefined),
    answers: new SharedAnswers(() => Promise.resolve(0), { reuseMs: 60_000 }),
    githubApps: new GitHubAppTokens(),
  });
}

/**
 * The plugin access of `appset render`: the platform's rules, ConfigMaps and token Secrets from the `--clusters`
 * file (namespace `argocd` when none is written), so a plugin generator asks the plugin the controller would ask.
 */
function renderPluginAccess(secrets: readonly V1Secret[], configMaps: readonly V1ConfigMap[]): PluginAccess {
  const inNamespace = <T extends { metadata?: { name?: string; namespace?: string } }>(objects: readonly T[], name: string): T | undefined =>
    objects.find((o) => o.metadata?.name === name && (o.metadata.namespace ?? RENDER_NAMESPACE) === RENDER_NAMESPACE);
  return createPluginAccess({
    policy: platformPluginPolicy(),
    namespace: RENDER_NAMESPACE,
    configMap: (name) => Promise.resolve(inNamespace(configMaps, name)),
    secret: (name) => Promise.resolve(inNamespace(secrets, name)),
    maxTimeoutMs: MAX_PLUGIN_TIMEOUT_MS,
    maxResponseBytes: MAX_PLUGIN_RESPONSE_BYTES,
  });
}
