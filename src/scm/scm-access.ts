import type { V1Secret } from '@kubernetes/client-node';
import { secretValue } from '../model/secrets.js';
import type { ScmAccess } from './access.js';
import { createApiClient, type ApiAuth, type ApiClient, type ApiRequestRecord } from './http/api-client.js';
import type { ConditionalCache } from './http/conditional-cache.js';
import { ScmRequestRefused } from './http/errors.js';
import type { GitHubAppTokens } from './github-app.js';
import type { AuthPlan, ConfigMapKeyRef, ProviderConnection, SecretKeyRef } from './provider.js';
import type { SharedAnswers } from './shared-answers.js';

/** What the platform allows SCM provider API traffic, for one caller (the platform, or one tenant). */
export interface ScmPolicy {
  /** `--enable-scm-providers`: off refuses every SCM provider and pull request generator. */
  readonly enabled: boolean;
  /** `--allowed-scm-providers`: API base URLs a spec's `api` may name; empty allows any (as Argo CD). */
  readonly allowedApiUrls: readonly string[];
  /** Why the API URL itself may not be used (scheme, literal loopback or link-local host), or undefined when it may. */
  readonly refusedUrl?: (apiUrl: string) => string | undefined;
  /** Why traffic may not go to a resolved address, checked at connect time, or undefined when it may. */
  readonly refusedAddress?: (address: string) => string | undefined;
  /** Whether this caller may use a Secret at all (the project scoping of Git credentials). */
  readonly usesSecret: (secret: V1Secret) => boolean;
  /**
   * Whether a usable Secret's value may go to `connection`: a tenant may send a Secret that is not its
   * project's own (a shared platform token) only to the provider's public API or a listed URL.
   */
  readonly mayCarry: (secret: V1Secret, connection: ProviderConnection) => boolean;
}

/** Where the SCM access reads its inputs. */
export interface ScmAccessParts {
  readonly policy: ScmPolicy;
  /** The SCM credential Secrets of the controller's namespace (`scm-creds`, `repository`, `repo-creds`). */
  readonly secrets: () => readonly V1Secret[];
  /** The controller's namespace, named in errors. */
  readonly namespace: string;
  /** Reads one key of a ConfigMap of the controller's namespace (CA bundles of `caRef`). */
  readonly configMapValue: (ref: ConfigMapKeyRef, signal: AbortSignal) => Promise<string | undefined>;
  /** Extra root CAs for every provider (`--scm-root-ca-path`'s content). */
  readonly rootCa?: string;
  readonly conditional?: ConditionalCache;
  readonly answers: SharedAnswers;
  readonly githubApps: GitHubAppTokens;
  readonly onRequest?: (record: ApiRequestRecord) => void;
}

/** The SCM access of one caller under `parts.policy`: every refusal names its rule; nothing is sent before the checks pass. */
export function createScmAccess(parts: ScmAccessParts): ScmAccess {
  return {
    async connect(asked, signal) {
      checkConnection(parts.policy, asked);
      const connection = withAppEnterpriseUrl(parts, asked);
      if (connection !== asked) checkConnection(parts.policy, connection);
      // The CAs first: a GitHub App's token exchange goes to the same host and must trust the same CAs.
      const caRef = connection.caRef ? await caOf(parts, connection.caRef, signal) : undefined;
      const ca = [parts.rootCa, caRef].filter((c): c is string => c !== undefined && c !== '').join('\n');
      const auth = await authOf(parts, connection, ca, signal);
      return client(parts, connection, auth, ca);
    },
    share: (question, eventKey, load) => parts.answers.get(question, eventKey, load),
    remember: (question, load) => parts.answers.remember(question, load),
  };
}

function client(parts: ScmAccessParts, connection: ProviderConnection, auth: ApiAuth, ca: string): ApiClient {
  return createApiClient({
    baseUrl: connection.apiBase,
    auth,
    insecure: connection.insecure,
    ...(ca ? { caCertificates: ca } : {}),
    ...(parts.policy.refusedAddress ? { refusedAddress: parts.policy.refusedAddress } : {}),
    ...(parts.conditional ? { conditional: parts.conditional } : {}),
    ...(parts.onRequest ? { onRequest: parts.onRequest } : {}),
  });
}

/**
 * As Argo CD: a GitHub App generator that names no `api` talks to the app's GitHub Enterprise when its
 * Secret names one (`githubAppEnterpriseBaseUrl`, completed with `/api/v3` as go-github does).
 */
function withAppEnterpriseUrl(parts: ScmAccessParts, connection: ProviderConnection): ProviderConnection {
  if (connection.auth.kind !== 'githubApp' || connection.customApiUrl !== '') return connection;
  const secretName = connection.auth.secretName;
  const enterprise = secretValue(usableSecret(parts, connection, secretName), 'githubAppEnterpriseBaseUrl')?.trim();
  if (!enterprise) return connection;
  let url: URL | undefined;
  try {
    url = new URL(enterprise.endsWith('/') ? enterprise : `${enterprise}/`);
  } catch {
    url = undefined;
  }
  if (url?.protocol !== 'https:' && url?.protocol !== 'http:')
    throw new ScmRequestRefused(`Secret ${parts.namespace}/${secretName}: githubAppEnterpriseBaseUrl ${JSON.stringify(enterprise)} is not an http(s) URL`);
  const isApiHost = url.hostname.startsWith('api.') || url.hostname.includes('.api.');
  if (!url.pathname.endsWith('/api/v3/') && !isApiHost) url.pathname += 'api/v3/';
  return { ...connection, apiBase: url.href.replace(/\/$/, '') };
}

/** The rules that need no Secret: enabled, the allowed API URLs, a safe API URL. */
function checkConnection(policy: ScmPolicy, connection: ProviderConnection): void {
  if (!policy.enabled) throw new ScmRequestRefused('SCM providers are disabled on this controller (--enable-scm-providers=false)');
  const custom = connection.customApiUrl;
  if (custom !== '' && policy.allowedApiUrls.length > 0 && !policy.allowedApiUrls.includes(custom)) {
    throw new ScmRequestRefused(`API URL ${custom} is not in --allowed-scm-providers (${policy.allowedApiUrls.join(', ')}); nothing was sent to it`);
  }
  const unsafe = policy.refusedUrl?.(connection.apiBase);
  if (unsafe) throw new ScmRequestRefused(`API URL ${connection.apiBase} is refused: ${unsafe}; nothing was sent to it`);
}

async function authOf(parts: ScmAccessParts, connection: ProviderConnection, ca: string, signal: AbortSignal): Promise<ApiAuth> {
  const plan: AuthPlan = connection.auth;
  switch (plan.kind) {
    case 'none':
      return { kind: 'none' };
    case 'token':
      return plan.toAuth(secretKey(parts, connection, plan.ref));
    case 'basic':
      return { kind: 'basic', username: plan.username, password: secretKey(parts, connection, plan.passwordRef) };
    case 'githubApp': {
      const secret = usableSecret(parts, connection, plan.secretName);
      const field = (key: string): string => {
        const value = secretValue(secret, key)?.trim();
        if (!value) throw new ScmRequestRefused(`Secret ${parts.namespace}/${plan.secretName} has no ${key} (a GitHub App credential needs it)`);
        return value;
      };
      const credentials = { appId: field('githubAppID'), installationId: field('githubAppInstallationID'), privateKey: field('githubAppPrivateKey') };
      const token = await parts.githubApps.token(credentials, client(parts, connection, { kind: 'none' }, ca), signal);
      return { kind: 'bearer', token };
    }
  }
}

function secretKey(parts: ScmAccessParts, connection: ProviderConnection, ref: SecretKeyRef): string {
  const secret = usableSecret(parts, connection, ref.secretName);
  const value = secretValue(secret, ref.key);
  if (value === undefined) throw new ScmRequestRefused(`Secret ${parts.namespace}/${ref.secretName} has no key ${ref.key}`);
  return value.trim();
}

/** The named Secret, if this caller may send it to this connection; otherwise an error naming the rule. */
function usableSecret(parts: ScmAccessParts, connection: ProviderConnection, name: string): V1Secret {
  const secret = parts.secrets().find((s) => s.metadata?.name === name);
  if (!secret) {
    throw new ScmRequestRefused(
      `Secret ${parts.namespace}/${name} is not among the SCM credential Secrets (label argocd.argoproj.io/secret-type: scm-creds, repository or repo-creds)`,
    );
  }
  if (!parts.policy.usesSecret(secret)) {
    throw new ScmRequestRefused(`Secret ${parts.namespace}/${name} is scoped to another project (or not shared with tenants); it is not used`);
  }
  if (!parts.policy.mayCarry(secret, connection)) {
    throw new ScmRequestRefused(
      `Secret ${parts.namespace}/${name} is the platform's, and ${connection.apiBase} is neither the provider's public API nor in --allowed-scm-providers; nothing was sent`,
    );
  }
  return secret;
}

async function caOf(parts: ScmAccessParts, ref: ConfigMapKeyRef, signal: AbortSignal): Promise<string> {
  const value = await parts.configMapValue(ref, signal);
  if (value === undefined) throw new ScmRequestRefused(`ConfigMap ${parts.namespace}/${ref.configMapName} has no key ${ref.key} (caRef)`);
  return value;
}
