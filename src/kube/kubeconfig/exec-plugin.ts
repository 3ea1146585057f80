import { spawn } from 'node:child_process';
import { entryPath, type NamedEntry } from './document.js';
import { KubeConfigError } from './errors.js';
import { describeEntry } from './fields.js';
import type { ResolvedCluster } from './cluster.js';

const API_VERSIONS = new Set(['client.authentication.k8s.io/v1', 'client.authentication.k8s.io/v1beta1']);

/** A plugin that has not answered within this is killed: a hung plugin must not stall the controller forever. */
const PLUGIN_TIMEOUT_MS = 60_000;

/** What an exec credential plugin handed back. */
export interface ExecCredential {
  readonly token?: string;
  readonly clientCertificateData?: string;
  readonly clientKeyData?: string;
  /** When it stops being valid (ms since the epoch); undefined when the plugin gave no expiry. */
  readonly expiresAt?: number;
}

/** The `exec` section of a user, checked. */
interface ExecSettings {
  readonly apiVersion: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly env: ReadonlyArray<{ name: string; value: string }>;
  readonly installHint: string | undefined;
  readonly provideClusterInfo: boolean;
}

/**
 * A source of the exec plugin credential of `user`: the plugin runs on first use and again once the
 * credential's expirationTimestamp has passed (one run at a time). A credential without an expiry is not
 * kept (client-node's behaviour): callers hold credentials only for seconds.
 */
export function execCredentialSource(user: NamedEntry, exec: unknown, cluster: ResolvedCluster, now: () => number = Date.now): () => Promise<ExecCredential> {
  const settings = checkExec(user, exec);
  let cached: ExecCredential | undefined;
  let running: Promise<ExecCredential> | undefined;
  return () => {
    if (cached?.expiresAt !== undefined && cached.expiresAt > now()) return Promise.resolve(cached);
    running ??= runPlugin(settings, cluster)
      .then((credential) => (cached = credential))
      .finally(() => (running = undefined));
    return running;
  };
}

function checkExec(user: NamedEntry, exec: unknown): ExecSettings {
  const name = `${describeEntry('user', user)}: exec`;
  if (typeof exec !== 'object' || exec === null || Array.isArray(exec)) throw new KubeConfigError(`${name} must be a mapping`);
  const e = exec as Record<string, unknown>;
  if (typeof e.apiVersion !== 'string' || !API_VERSIONS.has(e.apiVersion)) {
    throw new KubeConfigError(`${name}: apiVersion ${JSON.stringify(e.apiVersion)} is not supported (use ${[...API_VERSIONS].join(' or ')})`);
  }
  if (typeof e.command !== 'string' || e.command === '') throw new KubeConfigError(`${name}: field "command" is missing`);
  const args = e.args ?? [];
  if (!Array.isArray(args) || args.some((a) => typeof a !== 'string')) throw new KubeConfigError(`${name}: field "args" must be a list of strings`);
  const env = e.env ?? [];
  const envOk = Array.isArray(env) && env.every((v: { name?: unknown; value?: unknown } | null) => typeof v?.name === 'string' && typeof v.value === 'string');
  if (!envOk) throw new KubeConfigError(`${name}: field "env" must be a list of {name, value} strings`);
  if (e.interactiveMode === 'Always') throw new KubeConfigError(`${name}: interactiveMode Always needs a terminal, which a controller does not have`);
  // As kubectl: a command with a path separator is relative to the kubeconfig file; a bare name is looked up in PATH.
  const command = e.command.includes('/') ? entryPath(user, e.command) : e.command;
  return {
    apiVersion: e.apiVersion,
    command,
    args: args as string[],
    env: env as Array<{ name: string; value: string }>,
    installHint: typeof e.installHint === 'string' ? e.installHint : undefined,
    provideClusterInfo: e.provideClusterInfo === true,
  };
}

function execInfo(settings: ExecSettings, cluster: ResolvedCluster): string {
  const clusterInfo = settings.provideClusterInfo
    ? {
        cluster: {
          server: cluster.server,
          'certificate-authority-data': cluster.caData(),
          'insecure-skip-tls-verify': cluster.insecure || undefined,
          'tls-server-name': cluster.servername,
        },
      }
    : {};
  return JSON.stringify({ apiVersion: settings.apiVersion, kind: 'ExecCredential', spec: { interactive: false, ...clusterInfo } });
}

async function runPlugin(settings: ExecSettings, cluster: ResolvedCluster): Promise<ExecCredential> {
  const label = `exec plugin ${JSON.stringify(settings.command)}`;
  const env = { ...process.env, ...Object.fromEntries(settings.env.map((v) => [v.name, v.value])), KUBERNETES_EXEC_INFO: execInfo(settings, cluster) };
  const { code, stdout, stderr, error } = await run(settings.command, settings.args, env);
  if (error) {
    const hint = error.code === 'ENOENT' && settings.installHint ? `\n${settings.installHint}` : '';
    throw new KubeConfigError(`${label} could not run: ${error.code ?? error.message}${hint}`);
  }
  if (code !== 0) {
    const firstLine = stderr.split('\n').find((line) => line.trim() !== '') ?? '(no output on stderr)';
    throw new KubeConfigError(`${label} failed (${code === null ? 'killed' : `exit code ${code}`}): ${firstLine.trim()}`);
  }
  return parseCredential(stdout, settings.apiVersion, label);
}

function parseCredential(stdout: string, apiVersion: string, label: string): ExecCredential {
  let parsed: { apiVersion?: unknown; kind?: unknown; status?: Record<string, unknown> };
  try {
    parsed = JSON.parse(stdout) as typeof parsed;
  } catch {
    throw new KubeConfigError(`${label} did not print an ExecCredential as JSON`);
  }
  if (parsed?.kind !== 'ExecCredential' || parsed.apiVersion !== apiVersion) {
    throw new KubeConfigError(`${label} printed ${String(parsed?.apiVersion)} ${String(parsed?.kind)}, expected ${apiVersion} ExecCredential`);
  }
  const status = parsed.status ?? {};
  const text = (field: string): string | undefined => (typeof status[field] === 'string' && status[field] !== '' ? status[field] : undefined);
  const token = text('token');
  const clientCertificateData = text('clientCertificateData');
  const clientKeyData = text('clientKeyData');
  if (!token && !(clientCertificateData && clientKeyData)) {
    throw new KubeConfigError(`${label} gave neither status.token nor both status.clientCertificateData and status.clientKeyData`);
  }
  const expiry = text('expirationTimestamp');
  const expiresAt = expiry === undefined ? undefined : Date.parse(expiry);
  if (expiresAt !== undefined && Number.isNaN(expiresAt)) throw new KubeConfigError(`${label} gave an expirationTimestamp that is not a time: ${expiry}`);
  return { token, clientCertificateData, clientKeyData, expiresAt };
}

function run(
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; stderr: string; error?: NodeJS.ErrnoException }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'], timeout: PLUGIN_TIMEOUT_MS });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', (error) => resolve({ code: null, stdout: '', stderr: '', error }));
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }));
  });
}
