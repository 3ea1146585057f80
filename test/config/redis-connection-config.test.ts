import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { readControllerConfig } from '../../src/config/controller-config.js';
import { ConfigError } from '../../src/config/option-table.js';
import { redisConnectionOf } from '../../src/config/redis-connection-config.js';

const noFile = '/nonexistent/namespace';
const problemsOf = (env: Record<string, string>): string => {
  try {
    readControllerConfig({}, env, noFile);
  } catch (error) {
    assert.ok(error instanceof ConfigError);
    return error.message;
  }
  assert.fail('expected a ConfigError');
};

describe('Redis connection settings', () => {
  it('uses no Redis without a URL or Sentinels', () => {
    assert.equal(redisConnectionOf(readControllerConfig({}, {}, noFile)), undefined);
  });

  it('takes the password from its own variable, over one in the URL', () => {
    const config = readControllerConfig({}, { APPSET_REDIS_URL: 'redis://:old@redis:6379/2', APPSET_REDIS_PASSWORD: 'p@ss:w/rd' }, noFile);
    assert.deepEqual(redisConnectionOf(config), { url: 'redis://redis:6379/2', redisOptions: { password: 'p@ss:w/rd' } });
    const withUser = readControllerConfig({}, { APPSET_REDIS_URL: 'redis://queue-user@redis:6379', APPSET_REDIS_PASSWORD: 'pw' }, noFile);
    assert.deepEqual(redisConnectionOf(withUser), { url: 'redis://redis:6379', redisOptions: { password: 'pw', username: 'queue-user' } });
  });

  it('trusts a CA file for a rediss:// URL', () => {
    const ca = join(mkdtempSync(join(tmpdir(), 'redis-ca-')), 'ca.pem');
    writeFileSync(ca, '-----BEGIN CERTIFICATE-----\nx\n-----END CERTIFICATE-----\n');
    const config = readControllerConfig({ 'redis-url': 'rediss://redis:6380', 'redis-tls-ca-file': ca }, {}, noFile);
    assert.deepEqual(redisConnectionOf(config)?.redisOptions, { tls: { ca: '-----BEGIN CERTIFICATE-----\nx\n-----END CERTIFICATE-----\n' } });
  });

  it('names a missing CA file when connecting', () => {
    const config = readControllerConfig({ 'redis-url': 'rediss://redis:6380', 'redis-tls-ca-file': '/nonexistent/ca.pem' }, {}, noFile);
    assert.throws(() => redisConnectionOf(config), /Redis CA file \/nonexistent\/ca\.pem/);
  });

  it('finds the master through Sentinels, with TLS and both passwords', () => {
    const env = {
      APPSET_REDIS_SENTINELS: 'sentinel-0:26379, sentinel-1:26379,[fd00::1]:26380',
      APPSET_REDIS_SENTINEL_MASTER: 'mymaster',
      APPSET_REDIS_SENTINEL_PASSWORD: 'sp',
      APPSET_REDIS_PASSWORD: 'mp',
      APPSET_REDIS_TLS: 'true',
    };
    assert.deepEqual(redisConnectionOf(readControllerConfig({}, env, noFile)), {
      sentinel: {
        sentinels: [
          { host: 'sentinel-0', port: 26379 },
          { host: 'sentinel-1', port: 26379 },
          { host: 'fd00::1', port: 26380 },
        ],
        name: 'mymaster',
        sentinelPassword: 'sp',
        tls: true,
      },
      redisOptions: { password: 'mp' },
    });
  });

  it('refuses combinations that cannot work, naming each problem', () => {
    assert.match(
      problemsOf({ APPSET_REDIS_URL: 'redis://r:6379', APPSET_REDIS_SENTINELS: 's:26379', APPSET_REDIS_SENTINEL_MASTER: 'm' }),
      /exclude each other/,
    );
    assert.match(problemsOf({ APPSET_REDIS_SENTINELS: 's:26379' }), /needs --redis-sentinel-master/);
    assert.match(problemsOf({ APPSET_REDIS_SENTINEL_MASTER: 'm' }), /need --redis-sentinels/);
    assert.match(problemsOf({ APPSET_REDIS_URL: 'redis://r:6379', APPSET_REDIS_TLS: 'true' }), /use a rediss:\/\/ URL/);
    assert.match(problemsOf({ APPSET_REDIS_URL: 'redis://r:6379', APPSET_REDIS_TLS_CA_FILE: '/ca.pem' }), /--redis-tls-ca-file needs TLS/);
    assert.match(problemsOf({ APPSET_REDIS_PASSWORD: 'p' }), /--redis-password needs/);
    assert.match(problemsOf({ APPSET_REDIS_SENTINELS: 'sentinel-without-port', APPSET_REDIS_SENTINEL_MASTER: 'm' }), /--redis-sentinels .*host:port/);
  });
});
