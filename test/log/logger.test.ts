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
