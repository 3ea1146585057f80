import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { TestContext } from 'node:test';

/** A temporary directory removed when `t` ends; `write` creates files (and their folders) in it. */
export function tempDir(t: TestContext): { dir: string; write: (name: string, content: string | object, mode?: number) => string } {
  const dir = mkdtempSync(join(tmpdir(), 'kubeconfig-test-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return {
    dir,
    write: (name, content, mode) => {
      const path = join(dir, name);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content), { mode });
      return path;
    },
  };
}

/** A one-context kubeconfig document for `cluster` fields and `user` fields. */
export function kubeconfig(cluster: object, user?: object, context: object = {}): object {
  return {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'c', cluster }],
    users: user ? [{ name: 'u', user }] : [],
    contexts: [{ name: 'ctx', context: { cluster: 'c', ...(user ? { user: 'u' } : {}), ...context } }],
    'current-context': 'ctx',
  };
}

/** Base64 of `text`, as `...-data` fields hold it. */
export function b64(text: string): string {
  return Buffer.from(text).toString('base64');
}
