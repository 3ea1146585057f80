import type { ApiAuth, ApiClient } from './http/api-client.js';
import type { PullRequestSource, RepositorySource } from './types.js';

/** One key of a Secret, as specs name it (`tokenRef: {secretName, key}`). */
export interface SecretKeyRef {
  readonly secretName: string;
  readonly key: string;
}

/** One key of a ConfigMap (`caRef: {configMapName, key}`). */
export interface ConfigMapKeyRef {
  readonly configMapName: string;
  readonly key: string;
}

/** How a provider authenticates, before any Secret is read: the wiring reads the Secrets under tenancy rules. */
export type AuthPlan =
  | { readonly kind: 'none' }
  /** A token from a Secret, sent the way the provider wants it (`toAuth`). */
  | { readonly kind: 'token'; readonly ref: SecretKeyRef; readonly toAuth: (token: string) => ApiAuth }
  /** A user name from the spec and a password (or app password) from a Secret. */
  | { readonly kind: 'basic'; readonly username: string; readonly passwordRef: SecretKeyRef }
  /** A GitHub App: the `repo-creds` Secret named by `appSecretName` (app id, installation id, private key). */
  | { readonly kind: 'githubApp'; readonly secretName: string };

/** Where and how one generator's provider is reached. */
export interface ProviderConnection {
  /** Argo CD's key of the provider in the spec (`github`, `gitlab`, `gitea`, `bitbucketServer`, `bitbucket`, `azuredevops`/`azureDevOps`). */
  readonly provider: string;
  /** The absolute API base URL requests go to (the public host's when the spec names none). */
  readonly apiBase: string;
  /** The spec's `api` as written, '' when absent: what `--allowed-scm-providers` is checked against (as Argo CD does). */
  readonly customApiUrl: string;
  readonly auth: AuthPlan;
  readonly caRef?: ConfigMapKeyRef;
  /** The spec's `insecure: true`: TLS certificates not checked. */
  readonly insecure: boolean;
}

/** A pull request provider: reads its part of a `pullRequest` generator and lists the pull requests. */
export interface PullRequestProvider<Spec = unknown> {
  /** The key under `pullRequest` that selects this provider. */
  readonly name: string;
  /** Reads and checks the provider's spec; throws an error naming the field for anything wrong. */
  readSpec(raw: unknown, field: string): Spec;
  connection(spec: Spec): ProviderConnection;
  /** The repository the pull requests belong to, for webhook routing (`owner` is the project/workspace where the provider has one). */
  repository(spec: Spec): { readonly owner: string; readonly repo: string };
  /** Everything besides connection and credentials that shapes the listing (labels, state…), as a stable string. */
  question(spec: Spec): string;
  source(client: ApiClient, spec: Spec): PullRequestSource;
}

/** An SCM provider: reads its part of an `scmProvider` generator and lists the organisation's repositories. */
export interface RepositoryProvider<Spec = unknown> {
  /** The key under `scmProvider` that selects this provider. */
  readonly name: string;
  readSpec(raw: unknown, field: string): Spec;
  connection(spec: Spec): ProviderConnection;
  /** The organisation (group, project, workspace, owner) listed, for webhook routing. */
  organization(spec: Spec): string;
  /** Everything besides connection and credentials that shapes the listing (allBranches, subgroups, topic…), as a stable string. */
  question(spec: Spec): string;
  source(client: ApiClient, spec: Spec): RepositorySource;
}
