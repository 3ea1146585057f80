import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import { buildParts, reported } from '../../src/environment/local/binaries.js';

/** The chart under test, in the source tree. */
export const CHART_DIR = fileURLToPath(new URL('../../../charts/appset-controller', import.meta.url));

/** A Kubernetes object as rendered by the chart. */
export interface Rendered {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [field: string]: unknown;
}

let helmPath: Promise<string> | undefined;

/** The Go-built helm (go-build/build-binaries.sh builds it once per machine; the test command builds it up front). */
export function ensureHelm(): Promise<string> {
  helmPath ??= buildParts(['helm']).then((values) => reported(values, 'HELM_BIN'));
  return helmPath;
}

/** What one helm run printed. */
export interface HelmResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs helm with private config/cache/data folders (nothing from the user's helm setup leaks in). */
export async function helm(args: string[], options: { kubeconfig?: string; timeoutMs?: number } = {}): Promise<HelmResult> {
  const bin = await ensureHelm();
  const home = mkdtempSync(join(tmpdir(), 'helm-home-'));
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    HELM_CACHE_HOME: join(home, 'cache'),
    HELM_CONFIG_HOME: join(home, 'config'),
    HELM_DATA_HOME: join(home, 'data'),
    ...(options.kubeconfig ? { KUBECONFIG: options.kubeconfig } : {}),
  };
  return new Promise((resolve) => {
    execFile(bin, args, { env, timeout: options.timeoutMs ?? 120_000, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, stderr: error && code === 1 && !stderr ? error.message : stderr });
    });
  });
}

/** `helm template` of the chart with `--set`-style values and values files; throws with helm's error on failure. */
export async function renderChart(options: { set?: string[]; valuesFiles?: string[]; namespace?: string; release?: string } = {}): Promise<Rendered[]> {
  const result = await helm(templateArgs(options));
  if (result.code !== 0) throw new Error(`helm template failed (${result.code}): ${result.stderr}`);
  return parseManifests(result.stdout);
}

/** The arguments of `helm template` for {@link renderChart}. */
export function templateArgs(options: { set?: string[]; valuesFiles?: string[]; namespace?: string; release?: string }): string[] {
  return [
    'template',
    options.release ?? 'appset',
    CHART_DIR,
    '--namespace',
    options.namespace ?? 'argocd',
    ...(options.valuesFiles ?? []).flatMap((file) => ['--values', file]),
    ...(options.set ?? []).flatMap((value) => ['--set', value]),
  ];
}

/** The objects of a multi-document YAML stream, empty documents dropped. */
export function parseManifests(text: string): Rendered[] {
  return parseAllDocuments(text)
    .map((doc) => {
      if (doc.errors.length > 0) throw new Error(`rendered YAML does not parse: ${doc.errors[0]?.message ?? ''}`);
      return doc.toJS() as Rendered | null;
    })
    .filter((obj): obj is Rendered => obj !== null && typeof obj === 'object');
}

/** The one object of `kind` (and `name`, when given); throws naming what is missing. */
export function findObject(objects: readonly Rendered[], kind: string, name?: string): Rendered {
  const found = objects.filter((o) => o.kind === kind && (name === undefined || o.metadata.name === name));
  if (found.length !== 1)
    throw new Error(`expected one ${kind}${name ? ` ${name}` : ''}, found ${found.length}: ${objects.map((o) => `${o.kind}/${o.metadata.name}`).join(', ')}`);
  return found[0] as Rendered;
}
