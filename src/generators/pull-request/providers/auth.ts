import type { ApiAuth } from '../../../scm/http/api-client.js';
import type { AuthPlan, SecretKeyRef } from '../../../scm/provider.js';

/** Requests without credentials (no `tokenRef`: public repositories only, as Argo CD does). */
export const NO_AUTH: AuthPlan = { kind: 'none' };

/**
 * A token read from `ref`, sent as `send` builds it; no reference means anonymous requests, and so does an
 * empty token, which the SDKs Argo CD uses do not send either.
 */
export function tokenPlan(ref: SecretKeyRef | undefined, send: (token: string) => ApiAuth): AuthPlan {
  if (!ref) return NO_AUTH;
  return { kind: 'token', ref, toAuth: (token) => (token === '' ? { kind: 'none' } : send(token)) };
}

/** `Authorization: Bearer <token>`. */
export const bearer = (token: string): ApiAuth => ({ kind: 'bearer', token });
