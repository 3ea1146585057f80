import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { V1Secret } from '@kubernetes/client-node';
import type { Provider } from '../../model/push.js';
import { secretValue } from '../../model/secrets.js';
import { AppsetError } from '../../model/errors.js';

/** Shared secrets per provider, from the webhook Secret; a provider without one is refused. */
export type WebhookSecrets = Partial<Record<Provider, string>> & {
  /** Azure DevOps sends HTTP basic auth: this is its user name, the `azuredevops` entry its password. */
  azuredevopsUsername?: string;
};

/** Keys of the webhook Secret, per provider (Argo CD's argocd-secret names where it has them). */
export const SECRET_KEYS: Readonly<Record<Provider, string>> = {
  github: 'webhook.github.secret',
  gitlab: 'webhook.gitlab.secret',
  gitea: 'webhook.gitea.secret',
  bitbucket: 'webhook.bitbucket.secret',
  'bitbucket-server': 'webhook.bitbucketserver.secret',
  azuredevops: 'webhook.azuredevops.password',
};

/** Key of the webhook Secret holding the Azure DevOps basic-auth user name (Argo CD's; empty or absent means ''). */
export const AZURE_DEVOPS_USERNAME_KEY = 'webhook.azuredevops.username';

/** The provider secrets held in the webhook Secret (base64 `data` or plain `stringData`). */
export function webhookSecretsFrom(secret: V1Secret | undefined): WebhookSecrets {
  const secrets: WebhookSecrets = {};
  if (!secret) return secrets;
  for (const [provider, key] of Object.entries(SECRET_KEYS) as Array<[Provider, string]>) {
    const value = secretValue(secret, key);
    if (value) secrets[provider] = value;
  }
  const username = secretValue(secret, AZURE_DEVOPS_USERNAME_KEY);
  if (username) secrets.azuredevopsUsername = username;
  return secrets;
}

/** A request that was identified and whose signature or token checked out. */
export interface VerifiedRequest {
  readonly provider: Provider;
  /**
   * The provider's event name, e.g. `push`, `Push Hook`, `repo:push`, `repo:refs_changed`. Azure DevOps sends no
   * event header: its event is the body's `eventType` (`git.pullrequest.created`), '' until the request is verified.
   */
  readonly event: string;
}

/** Why a request was refused, with the HTTP status to answer. */
export class WebhookRejection extends AppsetError {
  override readonly name = 'WebhookRejection';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const header = (headers: IncomingHttpHeaders, name: string): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/**
 * Which provider sent the request, from its headers: Azure DevOps by `X-Vss-ActivityId` (as Argo CD, first),
 * Gitea and Forgejo before GitHub, as they also send GitHub's event header.
 */
export function detectProvider(headers: IncomingHttpHeaders): VerifiedRequest | undefined {
  if (header(headers, 'x-vss-activityid')) return { provider: 'azuredevops', event: '' };
  const gitea = header(headers, 'x-gitea-event') ?? header(headers, 'x-forgejo-event') ?? header(headers, 'x-gogs-event');
  if (gitea) return { provider: 'gitea', event: gitea };
  const github = header(headers, 'x-github-event');
  if (github) return { provider: 'github', event: github };
  const gitlab = header(headers, 'x-gitlab-event');
  if (gitlab) return { provider: 'gitlab', event: gitlab };
  const eventKey = header(headers, 'x-event-key');
  if (eventKey) return { provider: header(headers, 'x-hook-uuid') ? 'bitbucket' : 'bitbucket-server', event: eventKey };
  return undefined;
}

/**
 * Identifies the provider and checks the request the provider's way: HMAC-SHA256 of the raw body for
 * GitHub (`X-Hub-Signature-256`), Gitea/Forgejo (`X-Gitea-Signature`/`X-Forgejo-Signature`) and
 * Bitbucket Cloud and Server (`X-Hub-Signature`), the shared token for GitLab (`X-Gitlab-Token`), HTTP basic
 * auth for Azure DevOps (`webhook.azuredevops.username`/`.password`). All comparisons are constant-time.
 * Throws a WebhookRejection: 400 unknown provider, 401 anything unverified.
 */
export function verifyRequest(headers: IncomingHttpHeaders, body: Buffer, secrets: WebhookSecrets): VerifiedRequest {
  const request = detectProvider(headers);
  if (!request) throw new WebhookRejection(400, 'unknown webhook: no GitHub, GitLab, Gitea, Forgejo, Bitbucket or Azure DevOps event header');
  const secret = secrets[request.provider];
  if (!secret) throw new WebhookRejection(401, `no ${SECRET_KEYS[request.provider]} is configured, so ${request.provider} webhooks cannot be verified`);
  if (request.provider === 'azuredevops') {
    if (!basicAuthMatches(header(headers, 'authorization'), secrets.azuredevopsUsername ?? '', secret))
      throw new WebhookRejection(401, 'azuredevops webhook basic auth is missing or wrong');
    // Only a verified body is read for its event type.
    return { provider: 'azuredevops', event: azureEventType(body) };
  }
  const valid =
    request.provider === 'gitlab'
      ? equalSecret(header(headers, 'x-gitlab-token'), secret)
      : equalSecret(signatureOf(request.provider, headers)?.toLowerCase(), hmacHex(secret, body));
  if (!valid) throw new WebhookRejection(401, `${request.provider} webhook signature is missing or wrong`);
  return request;
}

/** `Authorization: Basic base64(user:password)` (RFC 7617: the scheme is case-insensitive, the password may hold `:`). */
function basicAuthMatches(authorization: string | undefined, username: string, password: string): boolean {
  const match = /^basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization ?? '');
  const decoded = match?.[1] === undefined ? undefined : Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded?.indexOf(':') ?? -1;
  if (decoded === undefined || colon < 0) return false;
  // Both halves are always compared, so the time taken does not tell which one was wrong.
  const userOk = equalSecret(decoded.slice(0, colon), username);
  const passwordOk = equalSecret(decoded.slice(colon + 1), password);
  return userOk && passwordOk;
}

/** The `eventType` of an Azure DevOps body, '' when it is not JSON or names none (the handler then refuses or ignores it). */
function azureEventType(body: Buffer): string {
  try {
    const parsed = JSON.parse(body.toString('utf8')) as unknown;
    const eventType = parsed !== null && typeof parsed === 'object' ? (parsed as { eventType?: unknown }).eventType : undefined;
    return typeof eventType === 'string' ? eventType : '';
  } catch {
    return '';
  }
}

function signatureOf(provider: Provider, headers: IncomingHttpHeaders): string | undefined {
  if (provider === 'github') return stripPrefix(header(headers, 'x-hub-signature-256'));
  if (provider === 'gitea') return header(headers, 'x-gitea-signature') ?? header(headers, 'x-forgejo-signature') ?? header(headers, 'x-gogs-signature');
  return stripPrefix(header(headers, 'x-hub-signature'));
}

function stripPrefix(value: string | undefined): string | undefined {
  return value?.startsWith('sha256=') ? value.slice('sha256='.length) : undefined;
}

function hmacHex(secret: string, body: Buffer): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

function equalSecret(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const [a, b] = [Buffer.from(given), Buffer.from(expected)];
  return a.length === b.length && timingSafeEqual(a, b);
}
