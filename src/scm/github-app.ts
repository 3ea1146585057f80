import { createSign } from 'node:crypto';
import { digest, type ApiClient } from './http/api-client.js';
import { ScmRequestRefused } from './http/errors.js';

/** The fields of Argo CD's GitHub App credential Secret (`githubAppID`, `githubAppInstallationID`, `githubAppPrivateKey`). */
export interface GitHubAppCredentials {
  readonly appId: string;
  readonly installationId: string;
  readonly privateKey: string;
}

interface CachedToken {
  readonly token: string;
  readonly expiresAt: number;
}

/** Installation tokens are renewed this long before GitHub says they expire. */
const RENEW_BEFORE_MS = 5 * 60_000;

/**
 * Installation access tokens of GitHub Apps, kept until shortly before they expire (an hour on GitHub),
 * so a reconcile does not cost a token exchange. One exchange at a time per installation.
 */
export class GitHubAppTokens {
  private readonly tokens = new Map<string, Promise<CachedToken>>();

  constructor(private readonly now: () => number = Date.now) {}

  /** A token of the installation, exchanged through `appClient` (a client of the API base with no credentials). */
  async token(credentials: GitHubAppCredentials, appClient: ApiClient, signal: AbortSignal): Promise<string> {
    // The private key is part of the key: a Secret naming the same ids with another key gets no token it did not earn.
    const key = `${appClient.baseUrl} ${credentials.appId} ${credentials.installationId} ${digest(credentials.privateKey)}`;
    const cached = this.tokens.get(key);
    if (cached) {
      const held = await cached.catch(() => undefined);
      if (held && held.expiresAt - RENEW_BEFORE_MS > this.now()) return held.token;
    }
    const exchange = this.exchange(credentials, appClient, signal);
    this.tokens.set(key, exchange);
    exchange.catch(() => this.tokens.get(key) === exchange && this.tokens.delete(key));
    return (await exchange).token;
  }

  private async exchange(credentials: GitHubAppCredentials, appClient: ApiClient, signal: AbortSignal): Promise<CachedToken> {
    if (!/^\d+$/.test(credentials.installationId)) throw new ScmRequestRefused('githubAppInstallationID must be a number');
    const jwt = appJwt(credentials, this.now());
    const response = await appClient.request(`/app/installations/${credentials.installationId}/access_tokens`, signal, {
      method: 'POST',
      headers: { authorization: `Bearer ${jwt}`, accept: 'application/vnd.github+json' },
    });
    const body = response.body as { token?: unknown; expires_at?: unknown } | undefined;
    if (typeof body?.token !== 'string') throw new ScmRequestRefused(`${appClient.baseUrl} answered the installation token exchange without a token`);
    const expiresAt = typeof body.expires_at === 'string' ? Date.parse(body.expires_at) : this.now() + 60 * 60_000;
    return { token: body.token, expiresAt: Number.isFinite(expiresAt) ? expiresAt : this.now() + 60 * 60_000 };
  }
}

/** The app's own JWT (RS256, issued a minute in the past against clock drift, valid nine minutes), as GitHub documents. */
export function appJwt(credentials: GitHubAppCredentials, now: number): string {
  const seconds = Math.floor(now / 1000);
  const encode = (value: object): string => Buffer.from(JSON.stringify(value)).toString('base64url');
  const unsigned = `${encode({ alg: 'RS256', typ: 'JWT' })}.${encode({ iat: seconds - 60, exp: seconds + 540, iss: credentials.appId })}`;
  try {
    const signature = createSign('RSA-SHA256').update(unsigned).sign(credentials.privateKey).toString('base64url');
    return `${unsigned}.${signature}`;
  } catch {
    throw new ScmRequestRefused('githubAppPrivateKey is not a usable RSA private key (PEM)');
  }
}
