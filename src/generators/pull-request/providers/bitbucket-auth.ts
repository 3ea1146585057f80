import type { AuthPlan, SecretKeyRef } from '../../../scm/provider.js';
import { readString, type JsonObject } from '../../spec-reading.js';
import { bearer, NO_AUTH, tokenPlan } from './auth.js';
import { readProviderObject, readRequiredSecretRef } from './spec-fields.js';

/** The credentials both Bitbucket providers take: `basicAuth {username, passwordRef}` and `bearerToken {tokenRef}`. */
export interface BitbucketCredentials {
  readonly basicAuth: { readonly username: string; readonly passwordRef: SecretKeyRef } | undefined;
  readonly bearerToken: { readonly tokenRef: SecretKeyRef } | undefined;
}

/** Reads `basicAuth` and `bearerToken` of a Bitbucket provider object. */
export function readBitbucketCredentials(object: JsonObject, field: string): BitbucketCredentials {
  const basic = object['basicAuth'];
  const token = object['bearerToken'];
  const basicObject = basic === undefined || basic === null ? undefined : readProviderObject(basic, `${field}.basicAuth`, ['username', 'passwordRef']);
  const tokenObject = token === undefined || token === null ? undefined : readProviderObject(token, `${field}.bearerToken`, ['tokenRef']);
  return {
    basicAuth: basicObject && {
      username: readString(basicObject['username'], `${field}.basicAuth.username`),
      passwordRef: readRequiredSecretRef(basicObject['passwordRef'], `${field}.basicAuth.passwordRef`),
    },
    bearerToken: tokenObject && { tokenRef: readRequiredSecretRef(tokenObject['tokenRef'], `${field}.bearerToken.tokenRef`) },
  };
}

/** Argo CD's order: the bearer token when given, else basic auth, else anonymous. */
export function bitbucketAuthPlan(credentials: BitbucketCredentials): AuthPlan {
  if (credentials.bearerToken) return tokenPlan(credentials.bearerToken.tokenRef, bearer);
  if (credentials.basicAuth) return { kind: 'basic', username: credentials.basicAuth.username, passwordRef: credentials.basicAuth.passwordRef };
  return NO_AUTH;
}
