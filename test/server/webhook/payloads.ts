import { createHmac } from 'node:crypto';

/** Trimmed push payloads in each provider's real shape, for the repository `platform/monorepo`. */
export const payloads = {
  github: {
    ref: 'refs/heads/main',
    repository: {
      html_url: 'https://github.com/platform/monorepo',
      clone_url: 'https://github.com/platform/monorepo.git',
      ssh_url: 'git@github.com:platform/monorepo.git',
      default_branch: 'main',
    },
  },
  gitea: {
    ref: 'refs/heads/release/1.0',
    repository: {
      html_url: 'https://gitea.example/platform/monorepo',
      clone_url: 'https://gitea.example/platform/monorepo.git',
      ssh_url: 'git@gitea.example:platform/monorepo.git',
      default_branch: 'main',
    },
  },
  gitlab: {
    object_kind: 'push',
    ref: 'refs/heads/main',
    project: {
      web_url: 'https://gitlab.example/platform/monorepo',
      git_http_url: 'https://gitlab.example/platform/monorepo.git',
      git_ssh_url: 'git@gitlab.example:platform/monorepo.git',
      default_branch: 'main',
    },
  },
  bitbucket: {
    push: { changes: [{ new: { type: 'tag', name: 'v1.2.0' }, old: null }] },
    repository: { full_name: 'platform/monorepo', links: { html: { href: 'https://bitbucket.org/platform/monorepo' } }, mainbranch: { name: 'main' } },
  },
  'bitbucket-server': {
    eventKey: 'repo:refs_changed',
    changes: [{ ref: { id: 'refs/heads/main', displayId: 'main', type: 'BRANCH' } }],
    repository: {
      links: {
        clone: [
          { href: 'https://bitbucket.example/scm/plat/monorepo.git', name: 'http' },
          { href: 'ssh://git@bitbucket.example:7999/plat/monorepo.git', name: 'ssh' },
        ],
      },
    },
  },
} as const;

/** Hex HMAC-SHA256 of `body` under `secret`. */
export function hmac(secret: string, body: string | Buffer): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

/** Headers a provider sends with a correctly signed push of `body`. */
export function signedHeaders(provider: keyof typeof payloads, secret: string, body: string): Record<string, string> {
  const base = { 'content-type': 'application/json' };
  switch (provider) {
    case 'github':
      return { ...base, 'x-github-event': 'push', 'x-hub-signature-256': `sha256=${hmac(secret, body)}` };
    case 'gitea':
      return { ...base, 'x-gitea-event': 'push', 'x-github-event': 'push', 'x-gitea-signature': hmac(secret, body) };
    case 'gitlab':
      return { ...base, 'x-gitlab-event': 'Push Hook', 'x-gitlab-token': secret };
    case 'bitbucket':
      return { ...base, 'x-event-key': 'repo:push', 'x-hook-uuid': '{1234}', 'x-hub-signature': `sha256=${hmac(secret, body)}` };
    case 'bitbucket-server':
      return { ...base, 'x-event-key': 'repo:refs_changed', 'x-request-id': 'r1', 'x-hub-signature': `sha256=${hmac(secret, body)}` };
  }
}
