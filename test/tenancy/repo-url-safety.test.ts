import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { refusedAddress, refusedRepoUrl } from '../../src/tenancy/repo-url-safety.js';

describe('tenant repository URLs', () => {
  const allowed = [
    'https://github.com/team-a/apps.git',
    'http://git.internal.example/apps',
    'ssh://git@github.com/team-a/apps.git',
    'git@github.com:team-a/apps.git',
    'https://10.0.0.5/apps.git',
  ];
  for (const url of allowed) it(`allows ${url}`, () => assert.equal(refusedRepoUrl(url), undefined));

  const attacks: Array<[string, RegExp]> = [
    ['file:///etc/passwd', /file:\/\/ and local paths/],
    ['/var/lib/appset/other-tenant.git', /file:\/\/ and local paths/],
    ['--upload-pack=touch /tmp/pwned', /start with "-"/],
    ['-cprotocol.ext.allow=always', /start with "-"/],
    ['ext::sh -c touch% /tmp/pwned', /remote-helper/],
    ['https://127.0.0.1/repo.git', /loopback/],
    ['https://127.9.9.9:8443/repo.git', /loopback/],
    ['http://2130706433/repo.git', /loopback/],
    ['http://0x7f.1/repo.git', /loopback/],
    ['https://[::1]/repo.git', /loopback/],
    ['https://[::ffff:127.0.0.1]/repo.git', /loopback/],
    ['https://localhost/repo.git', /loopback/],
    ['https://api.localhost/repo.git', /loopback/],
    ['git@127.0.0.1:repo.git', /loopback/],
    ['http://169.254.169.254/latest/meta-data', /link-local/],
    ['https://[fe80::1]/repo.git', /link-local/],
    ['gopher://example.com/repo', /gopher scheme is not allowed/],
    ['', /empty/],
  ];
  for (const [url, reason] of attacks) it(`refuses ${JSON.stringify(url)}`, () => assert.match(refusedRepoUrl(url) ?? 'ALLOWED', reason));

  it('lets the platform allow file://, loopback and link-local explicitly', () => {
    const all = { allowFile: true, allowLoopback: true, allowLinkLocal: true };
    for (const url of ['file:///srv/git/apps.git', 'https://127.0.0.1/repo.git', 'http://169.254.1.1/repo']) assert.equal(refusedRepoUrl(url, all), undefined);
  });

  it('checks resolved addresses for names that point inside', () => {
    assert.match(refusedAddress('127.0.0.53') ?? '', /loopback/);
    assert.match(refusedAddress('::ffff:169.254.169.254') ?? '', /link-local/);
    assert.equal(refusedAddress('140.82.112.3'), undefined);
  });
});
