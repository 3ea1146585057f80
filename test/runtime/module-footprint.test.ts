import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const startReplica = fileURLToPath(new URL('../../src/app/start-replica.js', import.meta.url));

/** What a fresh process has loaded after importing `module`: Node's internal modules and required files. */
function loadedBy(module: string): { internal: string[]; required: string[] } {
  const script = `
    import { createRequire } from 'node:module';
    await import(${JSON.stringify(module)});
    const required = Object.keys(createRequire(import.meta.url).cache);
    process.stdout.write(JSON.stringify({ internal: process.moduleLoadList, required }));`;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })) as { internal: string[]; required: string[] };
}

// Each of these is heap every replica would carry without using it (figures in the loading modules' comments).
describe('a replica loads no module it does not use', () => {
  const loaded = loadedBy(startReplica);

  it('the check sees what a process loads', () => {
    assert.ok(loaded.internal.includes('NativeModule http'), 'node:http itself is loaded');
    assert.ok(loaded.required.some((file) => file.includes('/bullmq/dist/cjs/classes/worker.js')));
    const esmHttp = loadedBy('node:http');
    assert.ok(esmHttp.internal.includes('NativeModule internal/deps/undici/undici'), 'an ESM import of node:http loads undici');
  });

  it("not Node's bundled undici (node:http is required, not imported)", () => {
    assert.deepEqual(
      loaded.internal.filter((name) => name.includes('undici')),
      [],
    );
  });

  it("not BullMQ's PostgreSQL backend nor its Valkey GLIDE client", () => {
    assert.deepEqual(
      loaded.required.filter((file) => /\/bullmq\/dist\/cjs\/(postgres\/|classes\/valkey-glide-client)/.test(file)),
      [],
    );
  });

  it('not pino-pretty, which only the pretty log format uses', () => {
    assert.deepEqual(
      loaded.required.filter((file) => file.includes('/pino-pretty/')),
      [],
    );
  });

  it('Handlebars as its one-file build, not its CommonJS tree', () => {
    assert.deepEqual(
      loaded.required.filter((file) => file.includes('/handlebars/') && !file.endsWith('/handlebars/dist/handlebars.min.js')),
      [],
    );
    assert.ok(
      loaded.required.some((file) => file.endsWith('/handlebars/dist/handlebars.min.js')),
      'the one-file build is what loads',
    );
  });
});
