import { entryPath, type NamedEntry } from './document.js';
import { KubeConfigError } from './errors.js';
import { base64Field, describeEntry, rejectUnsupportedFields, stringField, stringListField } from './fields.js';
import { execCredentialSource } from './exec-plugin.js';
import type { ResolvedCluster } from './cluster.js';
import { readNamedFile } from './read-file.js';

const KIND = 'user';

/** User fields of kubeconfig this client does not implement. */
const UNSUPPORTED = new Set(['auth-provider', 'as-user-extra']);

/** A user's credentials at one moment: headers and an optional client certificate (PEM). */
export interface UserCredentials {
  readonly headers: Record<string, string | string[]>;
  readonly cert?: string;
  readonly key?: string;
}

/** Checks the user entry and returns what resolves its current credentials (files are read again each call). */
export function resolveUser(entry: NamedEntry | undefined, cluster: ResolvedCluster): () => Promise<UserCredentials> {
  if (!entry) return () => Promise.resolve({ headers: {} });
  rejectUnsupportedFields(KIND, entry, UNSUPPORTED);
  const name = describeEntry(KIND, entry);
  const impersonation = impersonationHeaders(entry);
  const bearer = bearerSource(entry, name);
  const username = stringField(KIND, entry, 'username');
  const password = stringField(KIND, entry, 'password');
  const basic = username !== undefined || password !== undefined ? `Basic ${Buffer.from(`${username ?? ''}:${password ?? ''}`).toString('base64')}` : undefined;
  const exec = entry.fields.exec === undefined || entry.fields.exec === null ? undefined : execCredentialSource(entry, entry.fields.exec, cluster);
  if ([bearer, basic, exec].filter(Boolean).length > 1) throw new KubeConfigError(`${name}: set only one of token/tokenFile, username/password and exec`);
  const certificate = certificateSource(entry, name);
  return async () => {
    const headers: Record<string, string | string[]> = { ...impersonation };
    if (bearer) headers.Authorization = `Bearer ${bearer()}`;
    if (basic) headers.Authorization = basic;
    let pair = certificate();
    if (exec) {
      const credential = await exec();
      if (credential.token) headers.Authorization = `Bearer ${credential.token}`;
      if (credential.clientCertificateData && credential.clientKeyData) pair = { cert: credential.clientCertificateData, key: credential.clientKeyData };
    }
    return { headers, ...pair };
  };
}

/** `token` wins over `tokenFile` (as in kubectl); the file is read on every call, so a rotated token is used. */
function bearerSource(entry: NamedEntry, name: string): (() => string) | undefined {
  const token = stringField(KIND, entry, 'token');
  if (token !== undefined) return () => token;
  const file = stringField(KIND, entry, 'tokenFile');
  if (file === undefined) return undefined;
  const path = entryPath(entry, file);
  return () => {
    const value = readNamedFile(path, `${name}: tokenFile`).trim();
    if (value === '') throw new KubeConfigError(`${name}: tokenFile ${path} is empty`);
    return value;
  };
}

function certificateSource(entry: NamedEntry, name: string): () => { cert?: string; key?: string } {
  const cert = pemSource(entry, name, 'client-certificate');
  const key = pemSource(entry, name, 'client-key');
  if (!cert !== !key) throw new KubeConfigError(`${name}: ${cert ? 'client-key' : 'client-certificate'} is missing (a client certificate needs both)`);
  return cert && key ? () => ({ cert: cert(), key: key() }) : () => ({});
}

/** The PEM of `field` (a file) or `field-data` (base64), which may not both be set. */
function pemSource(entry: NamedEntry, name: string, field: string): (() => string) | undefined {
  const data = base64Field(KIND, entry, `${field}-data`);
  const file = stringField(KIND, entry, field);
  if (data !== undefined && file !== undefined) throw new KubeConfigError(`${name}: set only one of "${field}" and "${field}-data"`);
  if (data !== undefined) return () => data;
  if (file === undefined) return undefined;
  const path = entryPath(entry, file);
  return () => readNamedFile(path, `${name}: ${field}`);
}

function impersonationHeaders(entry: NamedEntry): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  const user = stringField(KIND, entry, 'as');
  const groups = stringListField(KIND, entry, 'as-groups');
  const uid = stringField(KIND, entry, 'as-uid');
  if ((groups.length > 0 || uid !== undefined) && user === undefined) {
    throw new KubeConfigError(`${describeEntry(KIND, entry)}: "as-groups" and "as-uid" need "as"`);
  }
  if (user !== undefined) headers['Impersonate-User'] = user;
  if (groups.length > 0) headers['Impersonate-Group'] = groups;
  if (uid !== undefined) headers['Impersonate-Uid'] = uid;
  return headers;
}
