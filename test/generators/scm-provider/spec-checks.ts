// Checks of provider spec reading shared by the contract tests.
import assert from 'node:assert/strict';
import { GeneratorSpecError } from '../../../src/generators/spec-reading.js';
import type { RepositoryProvider } from '../../../src/scm/provider.js';

/** Checks that reading `raw` fails with a spec error whose message starts with `prefix` (the field, then the problem). */
export function assertSpecError(provider: RepositoryProvider, raw: unknown, field: string, prefix: string): void {
  assert.throws(
    () => provider.readSpec(raw, field),
    (error: unknown) => {
      assert.ok(error instanceof GeneratorSpecError, `expected a GeneratorSpecError, got ${String(error)}`);
      assert.ok(error.message.startsWith(prefix), `"${error.message}" should start with "${prefix}"`);
      return true;
    },
  );
}

/** Checks that a clone protocol the provider does not offer fails, naming the field and the protocol. */
export async function assertUnknownCloneProtocol(listing: Promise<unknown>, protocol: string): Promise<void> {
  await assert.rejects(listing, (error: unknown) => {
    assert.ok(error instanceof GeneratorSpecError, `expected a GeneratorSpecError, got ${String(error)}`);
    assert.match(error.message, /^scmProvider\.cloneProtocol: unknown clone protocol/);
    assert.ok(error.message.includes(JSON.stringify(protocol)), error.message);
    return true;
  });
}
