// Each chosen library, exercised once on this Node version against the real parts it talks to,
// so a dependency bump that breaks on Node 20 fails here first.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { Queue, QueueEvents, Worker } from 'bullmq';
import Handlebars from 'handlebars';
import { minimatch } from 'minimatch';
import { simpleGit } from 'simple-git';
import { sharedEnvironment, sharedGitFixtures } from './env/shared-environment.js';

describe('dependencies work on this Node version', () => {
  it('bullmq runs a job through the real Redis', async () => {
    const connection = { url: sharedEnvironment().redisUrl, maxRetriesPerRequest: null };
    const name = `deps-${randomBytes(4).toString('hex')}`;
    const queue = new Queue(name, { connection });
    const events = new QueueEvents(name, { connection });
    const worker = new Worker<{ key: string }>(name, (job) => Promise.resolve(`done ${job.data.key}`), { connection });
    try {
      await events.waitUntilReady();
      const job = await queue.add('reconcile', { key: 'team-a/guestbook' });
      assert.equal(await job.waitUntilFinished(events, 10_000), 'done team-a/guestbook');
    } finally {
      await worker.close();
      await events.close();
      await queue.obliterate({ force: true });
      await queue.close();
    }
  });

  it('simple-git reads a repository over HTTP with credentials', async () => {
    const info = sharedEnvironment();
    const repo = await sharedGitFixtures().createRepo(`deps-${randomBytes(4).toString('hex')}`, { 'README.md': 'hi\n' });
    const url = new URL(repo.httpUrl);
    url.username = info.gitUsername;
    url.password = info.gitPassword;
    // Only what git needs: under `npm test`, npm exports EDITOR, which simple-git refuses to pass on.
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', GIT_TERMINAL_PROMPT: '0' };
    const refs = await simpleGit({ config: [] }).env(env).listRemote([url.href, 'refs/heads/main']);
    assert.match(refs, new RegExp(`^${await repo.revParse('main')}\\trefs/heads/main`));
  });

  it('handlebars renders in an isolated environment and minimatch matches globs', () => {
    const hbs = Handlebars.create();
    assert.equal(hbs.compile('{{path.basename}}', { noEscape: true })({ path: { basename: 'a&b' } }), 'a&b');
    assert.equal(minimatch('apps/guestbook', 'apps/*'), true);
    assert.equal(minimatch('apps/guestbook/x', 'apps/*'), false);
  });
});
