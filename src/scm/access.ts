import type { ApiClient } from './http/api-client.js';
import type { ProviderConnection } from './provider.js';

/** What the SCM provider and pull request generators may use to reach provider APIs; nothing else reaches them. */
export interface ScmAccess {
  /**
   * A client for one generator's provider, with its credentials read from the Secrets this caller may
   * use. Throws a ScmRequestRefused naming the rule when SCM providers are disabled, the API URL is not
   * in `--allowed-scm-providers`, points at an address tenants may not reach, or a Secret is out of scope.
   */
  connect(connection: ProviderConnection, signal: AbortSignal): Promise<ApiClient>;
  /**
   * The answer to one question, shared by every caller asking it meanwhile and reused for a short time,
   * unless a webhook for `eventKey` arrived since it was fetched (then it is fetched again).
   */
  share<T>(question: string, eventKey: string, load: () => Promise<T>): Promise<T>;
  /**
   * An answer that cannot change for its question (whether a path exists at one commit): loaded once and
   * kept, in a bounded cache, for as long as it is asked; failures are not kept.
   */
  remember<T>(question: string, load: () => Promise<T>): Promise<T>;
}
