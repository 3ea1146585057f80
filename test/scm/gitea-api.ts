// Drives the test environment's Gitea through its REST API, as a user would: organisations, repositories,
// branches, commits, labels, pull requests and webhooks. Gitea itself then sends the webhooks.
import { sharedEnvironment } from '../env/shared-environment.js';

/** A pull request as Gitea answers it (the fields the tests read). */
export interface GiteaPull {
  number: number;
  head: { ref: string; sha: string };
  state: string;
}

/** The admin's API of the shared environment's Gitea. */
export class GiteaApi {
  readonly url: string;
  readonly token: string;

  constructor() {
    const gitea = sharedEnvironment().gitea;
    if (!gitea) throw new Error('the test environment has no Gitea: the runner starts it for the tests of test/scm/');
    this.url = gitea.url;
    this.token = gitea.adminToken;
  }

  /** Sends one API request as the admin; a non-2xx answer throws with Gitea's message. */
  async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${this.url}/api/v1${path}`, {
      method,
      headers: { authorization: `token ${this.token}`, 'content-type': 'application/json', accept: 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`Gitea ${method} ${path} answered ${response.status}: ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  /** Creates an organisation. */
  async createOrg(name: string): Promise<void> {
    await this.call('POST', '/orgs', { username: name, visibility: 'public' });
  }

  /** Creates a repository of `org` with a first commit on `main`. */
  async createRepo(org: string, name: string): Promise<void> {
    await this.call('POST', `/orgs/${org}/repos`, { name, auto_init: true, default_branch: 'main', readme: 'Default' });
  }

  /** Creates `branch` from `from`. */
  async createBranch(owner: string, repo: string, branch: string, from = 'main'): Promise<void> {
    await this.call('POST', `/repos/${owner}/${repo}/branches`, { new_branch_name: branch, old_branch_name: from });
  }

  /** Commits a new file on `branch` (a push, as Gitea sees it) and returns the new head commit. */
  async commitFile(owner: string, repo: string, branch: string, path: string, content: string): Promise<string> {
    const answer = await this.call<{ commit: { sha: string } }>('POST', `/repos/${owner}/${repo}/contents/${path}`, {
      branch,
      content: Buffer.from(content).toString('base64'),
      message: `add ${path}`,
    });
    return answer.commit.sha;
  }

  /** Creates a label and returns its id. */
  async createLabel(owner: string, repo: string, name: string): Promise<number> {
    return (await this.call<{ id: number }>('POST', `/repos/${owner}/${repo}/labels`, { name, color: '#00aabb' })).id;
  }

  /** Opens a pull request from `head` into `base`. */
  async openPull(owner: string, repo: string, head: string, title: string, labels: number[] = [], base = 'main'): Promise<GiteaPull> {
    return this.call<GiteaPull>('POST', `/repos/${owner}/${repo}/pulls`, { head, base, title, labels });
  }

  /** Reads one pull request. */
  async pull(owner: string, repo: string, number: number): Promise<GiteaPull> {
    return this.call<GiteaPull>('GET', `/repos/${owner}/${repo}/pulls/${number}`);
  }

  /** Closes (or reopens) a pull request. */
  async setPullState(owner: string, repo: string, number: number, state: 'closed' | 'open'): Promise<void> {
    await this.call('PATCH', `/repos/${owner}/${repo}/pulls/${number}`, { state });
  }

  /** Merges a pull request. */
  async mergePull(owner: string, repo: string, number: number): Promise<void> {
    await this.call('POST', `/repos/${owner}/${repo}/pulls/${number}/merge`, { Do: 'merge' });
  }

  /** Replaces the labels of a pull request (an issue, to Gitea). */
  async setLabels(owner: string, repo: string, number: number, labels: number[]): Promise<void> {
    await this.call('PUT', `/repos/${owner}/${repo}/issues/${number}/labels`, { labels });
  }

  /** Adds a Gitea webhook to a repository, signed with `secret`, for `events`. */
  async addRepoHook(owner: string, repo: string, url: string, secret: string, events: string[]): Promise<void> {
    await this.call('POST', `/repos/${owner}/${repo}/hooks`, { type: 'gitea', active: true, events, config: { url, content_type: 'json', secret } });
  }

  /** Adds a Gitea webhook to every repository of an organisation (repository events included). */
  async addOrgHook(org: string, url: string, secret: string, events: string[]): Promise<void> {
    await this.call('POST', `/orgs/${org}/hooks`, { type: 'gitea', active: true, events, config: { url, content_type: 'json', secret } });
  }
}
