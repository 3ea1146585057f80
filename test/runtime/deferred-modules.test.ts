import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { types } from 'node:util';
import { deferModuleLoading, REPLICA_DEFERRED_MODULES } from '../../src/runtime/deferred-modules.js';

const deferredModules = fileURLToPath(new URL('../../src/runtime/deferred-modules.js', import.meta.url));
const startReplica = fileURLToPath(new URL('../../src/app/start-replica.js', import.meta.url));

/** A package folder with a module that counts its own loads, and a module that requires it at load but uses it only in a function. */
function fixture(): { root: string; requirer: string; heavy: string } {
  const root = mkdtempSync(join(tmpdir(), 'deferred-modules-'));
  mkdirSync(join(root, 'node_modules', 'heavy'), { recursive: true });
  const heavy = join(root, 'node_modules', 'heavy', 'index.js');
  writeFileSync(heavy, 'globalThis.heavyLoads = (globalThis.heavyLoads ?? 0) + 1;\nexports.answer = (x) => x * 2;\nexports.name = "heavy";\n');
  const requirer = join(root, 'requirer.js');
  writeFileSync(
    requirer,
    'const heavy = require("heavy");\nexports.use = (x) => heavy.answer(x);\nexports.has = () => "answer" in heavy;\nexports.heavy = heavy;\n',
  );
  return { root, requirer, heavy };
}

/** Runs `body` as an ES module in a fresh Node process after the replica's modules were deferred (`deferred`: their files); returns its output. */
function afterDeferring(body: string, cwd?: string): string {
  const script = `
    import { createRequire } from 'node:module';
    import { types } from 'node:util';
    const { deferModuleLoading, REPLICA_DEFERRED_MODULES } = await import(${JSON.stringify(deferredModules)});
    const deferred = deferModuleLoading(REPLICA_DEFERRED_MODULES);
    ${body}`;
  return execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', ...(cwd ? { cwd } : {}) });
}

const loads = (): number => (globalThis as { heavyLoads?: number }).heavyLoads ?? 0;

describe('deferModuleLoading', () => {
  const made: string[] = [];
  after(() => made.forEach((root) => rmSync(root, { recursive: true, force: true })));

  it('loads a deferred module only when an export is first read, and then only once', () => {
    const { root, requirer, heavy } = fixture();
    made.push(root);
    const require = createRequire(requirer);
    const before = loads();
    assert.deepEqual(deferModuleLoading([{ requiredBy: requirer, specifier: 'heavy' }]), [heavy]);
    const user = require(requirer) as { use: (x: number) => number; has: () => boolean; heavy: object };
    assert.equal(loads(), before, 'requiring it did not run it');
    assert.equal(user.use(21), 42);
    assert.equal(loads(), before + 1, 'the first use ran it');
    assert.equal(user.has(), true);
    assert.equal(types.isProxy(user.heavy), true, 'what the requirer holds is the stand-in');
    assert.deepEqual(Object.keys(user.heavy), ['answer', 'name'], 'which lists the real exports');
    const direct = require('heavy') as { name: string };
    assert.equal(direct.name, 'heavy');
    assert.equal(types.isProxy(direct), false, 'a later require gets the real module');
    assert.equal(loads(), before + 1, 'and it ran once');
  });

  it('leaves an already loaded module, and one that does not resolve, as they are', () => {
    const { root, requirer, heavy } = fixture();
    made.push(root);
    const require = createRequire(requirer);
    require(heavy);
    assert.deepEqual(deferModuleLoading([{ requiredBy: requirer, specifier: 'heavy' }]), []);
    assert.equal(types.isProxy(require.cache[heavy]?.exports), false);
    assert.deepEqual(deferModuleLoading([{ requiredBy: requirer, specifier: 'not-installed' }]), []);
  });
});

describe("the replica's deferred modules", () => {
  it('every one still resolves where its package requires it (a layout change fails here, not silently)', () => {
    const output = afterDeferring(`
      await import(${JSON.stringify(startReplica)});
      const cache = createRequire(import.meta.url).cache;
      process.stdout.write(JSON.stringify({
        deferred: deferred.length,
        stillDeferred: deferred.filter((path) => types.isProxy(cache[path]?.exports)).length,
        luxon: Object.keys(cache).filter((file) => file.includes('/node_modules/luxon/')).length,
        bullmqLoaded: Object.keys(cache).some((file) => file.endsWith('/bullmq/dist/cjs/classes/worker.js')),
      }));`);
    const seen = JSON.parse(output) as Record<string, unknown>;
    assert.deepEqual(seen, { deferred: REPLICA_DEFERRED_MODULES.length, stillDeferred: REPLICA_DEFERRED_MODULES.length, luxon: 0, bullmqLoaded: true });
  });

  it('a deferred module works when it is used: cron-parser through the BullMQ file that requires it', () => {
    const output = afterDeferring(
      `
      const require = createRequire(import.meta.url);
      const asBullMq = createRequire(require.resolve('bullmq/dist/cjs/classes/job-scheduler.js'));
      const cron = asBullMq('cron-parser');
      if (!types.isProxy(cron)) throw new Error('cron-parser was not deferred');
      const next = cron.CronExpressionParser.parse('*/5 * * * *', { currentDate: new Date('2026-01-01T00:01:00Z'), tz: 'UTC' }).next().toISOString();
      process.stdout.write(next);`,
      fileURLToPath(new URL('.', import.meta.url)),
    );
    assert.equal(output, '2026-01-01T00:05:00.000Z');
  });
});
