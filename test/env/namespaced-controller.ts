import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { readControllerConfig } from '../../src/config/controller-config.js';
import { startController, type RunningController } from '../../src/app/start-replica.js';
import type { CommandValues } from '../../src/config/option-table.js';
import { createControllerNamespace, type TestNamespace } from './namespaces.js';
import type { TestKubeConfig } from './test-kube-config.js';

/** A controller namespace of its own and one ready controller, running in the test's process, serving it. */
export interface NamespacedController {
  readonly ns: TestNamespace;
  readonly controller: RunningController;
  /** Stops the controller, then deletes the namespace. */
  readonly stop: () => Promise<void>;
}

/** Creates a controller namespace named after `prefix` and starts a silent controller on it with `flags` added (no settings from the environment). */
export async function startNamespacedController(kc: TestKubeConfig, prefix: string, flags: CommandValues = {}): Promise<NamespacedController> {
  const ns = await createControllerNamespace(kc, prefix);
  let controller: RunningController;
  try {
    const config = readControllerConfig(
      {
        namespace: ns.name,
        'listen-address': '127.0.0.1:0',
        'git-cache-dir': mkdtempSync(join(tmpdir(), `${prefix}-git-`)),
        ...flags,
      },
      {},
    );
    controller = await startController(config, kc, pino({ level: 'silent' }));
    await controller.ready;
  } catch (error) {
    await ns.delete();
    throw error;
  }
  return {
    ns,
    controller,
    stop: async () => {
      await controller.stop(5_000);
      await ns.delete();
    },
  };
}
