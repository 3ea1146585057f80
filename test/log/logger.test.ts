import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import { applicationSetLogger } from '../../src/log/logger.js';

describe('applicationSetLogger', () => {
  it('puts the ApplicationSet key on every line', () => {
    const lines: string[] = [];
    const sink = new Writable({ write: (chunk: Buffer, _encoding, done) => (lines.push(chunk.toString('utf8')), done()) });
    const log = applicationSetLogger(pino({}, sink), 'team-a/guestbook');
    log.info('one');
    log.child({ generator: 'git' }).warn('two');
    assert.equal(lines.length, 2);
    for (const line of lines) assert.equal((JSON.parse(line) as { appset: string }).appset, 'team-a/guestbook');
  });
});

describe('createLogger', () => {
  const run = async (format: string, record = "{ appset: 'team-a/guestbook' }"): Promise<string> => {
    const { execFile } = await import('node:child_process');
    const { promisify } = await import('node:util');
    const logger = new URL('../../src/log/logger.js', import.meta.url).href;
    const script = `import('${logger}').then((m) => m.createLogger('info', '${format}').info(${record}, 'reconciled'))`;
    return (await promisify(execFile)(process.execPath, ['-e', script])).stdout;
  };

  it('writes JSON lines by default', async () => {
    const line = JSON.parse(await run('json')) as { msg: string; appset: string; level: number };
    assert.deepEqual([line.msg, line.appset, line.level], ['reconciled', 'team-a/guestbook', 30]);
  });

  it('writes readable lines with --log-format pretty', async () => {
    const text = await run('pretty');
    assert.match(text, /INFO.*: reconciled/);
    assert.match(text, /"appset":"team-a\/guestbook"/);
  });

  it('keeps a pretty record on one line, without pid and host', async () => {
    const text = await run('pretty', "{ appset: 'team-a/apps', reason: 'AppProject team-a does not list namespace team-b in spec.sourceNamespaces' }");
    assert.equal(text.trimEnd().split('\n').length, 1, text);
    assert.match(text, /"reason":"AppProject team-a does not list namespace team-b in spec\.sourceNamespaces"/);
    assert.doesNotMatch(text, /pid|hostname/);
  });
});
