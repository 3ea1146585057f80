import assert from 'node:assert/strict';
import { generateKeyPairSync, verify } from 'node:crypto';
import { describe, it } from 'node:test';
import { appJwt, GitHubAppTokens, type GitHubAppCredentials } from '../../../src/scm/github-app.js';
import type { ApiClient, ApiRequestOptions, ApiResponse } from '../../../src/scm/http/api-client.js';
import { ScmApiError, ScmRequestRefused } from '../../../src/scm/http/errors.js';

const { privateKey, publicKey } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'pem' },
});
const credentials: GitHubAppCredentials = { appId: '123', installationId: '42', privateKey };
const signal = (): AbortSignal => new AbortController().signal;

/** An app client that answers token exchanges from `answer`, recording each. */
function appClient(answer: (call: number) => Promise<unknown>) {
  const calls: { path: string; options: ApiRequestOptions | undefined }[] = [];
  const client: ApiClient = {
    baseUrl: 'https://ghe.example/api/v3',
    credentialIdentity: 'none',
    request: async (path, _signal, options) => {
      calls.push({ path, options });
      const body = await answer(calls.length);
      return { status: 201, headers: {}, body, url: `https://ghe.example/api/v3/${path}`, notModified: false } satisfies ApiResponse;
    },
  };
  return { client, calls };
}

describe('appJwt', () => {
  it('signs RS256 with the app id as issuer, issued a minute back, valid ten minutes in all', () => {
    const now = Date.parse('2026-05-01T10:00:30.900Z');
    const [head = '', body = '', signature = ''] = appJwt(credentials, now).split('.');
    assert.ok(verify('RSA-SHA256', Buffer.from(`${head}.${body}`), publicKey, Buffer.from(signature, 'base64url')));
    assert.deepEqual(JSON.parse(Buffer.from(head, 'base64url').toString()), { alg: 'RS256', typ: 'JWT' });
    const seconds = Math.floor(now / 1000);
    assert.deepEqual(JSON.parse(Buffer.from(body, 'base64url').toString()), { iat: seconds - 60, exp: seconds + 540, iss: '123' });
  });

  it('refuses a key that is not an RSA private key', () => {
    assert.throws(() => appJwt({ ...credentials, privateKey: '-----BEGIN PRIVATE KEY-----\nnope\n-----END PRIVATE KEY-----' }, Date.now()), ScmRequestRefused);
  });
});

describe('GitHub App installation tokens', () => {
  it('exchanges a JWT at the installation path, once for concurrent callers', async () => {
    const now = Date.parse('2026-05-01T10:00:00Z');
    const tokens = new GitHubAppTokens(() => now);
    const { client, calls } = appClient(() => Promise.resolve({ token: 'ghs_1', expires_at: new Date(now + 3600_000).toISOString() }));
    const got = await Promise.all([tokens.token(credentials, client, signal()), tokens.token(credentials, client, signal())]);
    assert.deepEqual(got, ['ghs_1', 'ghs_1']);
    assert.equal(calls.length, 1);
    assert.equal(calls[0]?.path, '/app/installations/42/access_tokens');
    assert.equal(calls[0]?.options?.method, 'POST');
    assert.match(calls[0]?.options?.headers?.['authorization'] ?? '', /^Bearer [\w-]+\.[\w-]+\.[\w-]+$/);
  });

  it('renews a token five minutes before it expires', async () => {
    let now = Date.parse('2026-05-01T10:00:00Z');
    const tokens = new GitHubAppTokens(() => now);
    const { client, calls } = appClient((n) => Promise.resolve({ token: `ghs_${n}`, expires_at: new Date(now + 10 * 60_000).toISOString() }));
    assert.equal(await tokens.token(credentials, client, signal()), 'ghs_1');
    now += 5 * 60_000 - 1;
    assert.equal(await tokens.token(credentials, client, signal()), 'ghs_1', 'just over five minutes left');
    now += 1;
    assert.equal(await tokens.token(credentials, client, signal()), 'ghs_2', 'five minutes left: renewed');
    assert.equal(calls.length, 2);
  });

  it('keeps a token an hour when the answer names no expiry', async () => {
    let now = Date.parse('2026-05-01T10:00:00Z');
    const tokens = new GitHubAppTokens(() => now);
    const { client, calls } = appClient((n) => Promise.resolve({ token: `ghs_${n}` }));
    await tokens.token(credentials, client, signal());
    now += 54 * 60_000;
    assert.equal(await tokens.token(credentials, client, signal()), 'ghs_1');
    now += 2 * 60_000;
    assert.equal(await tokens.token(credentials, client, signal()), 'ghs_2');
    assert.equal(calls.length, 2);
  });

  it('does not keep a failed exchange', async () => {
    const tokens = new GitHubAppTokens();
    const refused = new ScmApiError('POST ghe.example/api/v3/app/installations/42/access_tokens answered 401', 401);
    const { client, calls } = appClient((n) => (n === 1 ? Promise.reject(refused) : Promise.resolve({ token: 'ghs_ok' })));
    await assert.rejects(tokens.token(credentials, client, signal()), ScmApiError);
    assert.equal(await tokens.token(credentials, client, signal()), 'ghs_ok');
    assert.equal(calls.length, 2);
  });

  it('keeps installations apart', async () => {
    const tokens = new GitHubAppTokens();
    const { client, calls } = appClient((n) => Promise.resolve({ token: `ghs_${n}` }));
    assert.equal(await tokens.token(credentials, client, signal()), 'ghs_1');
    assert.equal(await tokens.token({ ...credentials, installationId: '43' }, client, signal()), 'ghs_2');
    assert.equal(calls[1]?.path, '/app/installations/43/access_tokens');
  });

  it('refuses an answer without a token, naming the API', async () => {
    const tokens = new GitHubAppTokens();
    const { client } = appClient(() => Promise.resolve({ message: 'ok?' }));
    await assert.rejects(
      tokens.token(credentials, client, signal()),
      /https:\/\/ghe\.example\/api\/v3 answered the installation token exchange without a token/,
    );
  });
});
