import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoreV1Api, CustomObjectsApi } from '@kubernetes/client-node';
import { pino } from 'pino';
import type { CommandValues } from '../../src/config/option-table.js';
import { readControllerConfig } from '../../src/config/controller-config.js';
import { startController, type RunningController } from '../../src/app/start-replica.js';
import { createTestNamespace, type TestNamespace } from '../env/namespaces.js';
import { waitFor } from '../../src/environment/local/wait-for.js';
import type { TestKubeConfig } from '../env/test-kube-config.js';

const G = { group: 'argoproj.io', version: 'v1alpha1' };

/** The in-cluster server every test project allows. */
export const IN_CLUSTER = 'https://kubernetes.default.svc';

/** One attack: an ApplicationSet a hostile tenant creates, and the rule its refusal must name. */
export interface AttackCase {
  readonly title: string;
  /** ApplicationSet name; its Applications would be named `<name>-…`. */
  readonly name: string;
  readonly namespace: string;
  readonly spec: Record<string, unknown>;
  readonly rule: RegExp;
}

/** A tenant ApplicationSet spec: one list element by default, a template naming `<name>-{{env}}`. */
export function tenantSpec(
  name: string,
  options: {
    project?: string;
    repoURL?: string;
    destination?: Record<string, unknown>;
    generators?: unknown[];
    goTemplate?: boolean;
    extra?: Record<string, unknown>;
    templatePatch?: string;
    metadata?: Record<string, unknown>;
  } = {},
): Record<string, unknown> {
  const env = options.goTemplate ? '{{ .env }}' : '{{env}}';
  return {
    ...(options.goTemplate ? { goTemplate: true } : {}),
    generators: options.generators ?? [{ list: { elements: [{ env: 'dev' }] } }],
    ...(options.templatePatch ? { templatePatch: options.templatePatch } : {}),
    template: {
      metadata: { name: `${name}-${env}`, ...(options.metadata ?? {}) },
      spec: {
        project: options.project ?? 'team',
        source: { repoURL: options.repoURL ?? 'https://git.example/team/apps.git', path: 'apps', targetRevision: 'HEAD' },
        destination: options.destination ?? { server: IN_CLUSTER, namespace: `team-${env}` },
        ...(options.extra ?? {}),
      },
    },
  };
}

/** Cluster access for the attack suite: create, read and wait on ApplicationSets, Applications and Events. */
export class AttackCluster {
  readonly custom: CustomObjectsApi;
  readonly core: CoreV1Api;
  private readonly namespaces: TestNamespace[] = [];
  private readonly controllers: RunningController[] = [];

  constructor(readonly kc: TestKubeConfig) {
    this.custom = kc.makeApiClient(CustomObjectsApi);
    this.core = kc.makeApiClient(CoreV1Api);
  }

  /** A fresh namespace, deleted by {@link cleanUp}. */
  async namespace(prefix: string): Promise<string> {
    const ns = await createTestNamespace(this.kc, prefix);
    this.namespaces.push(ns);
    return ns.name;
  }

  /** Starts a controller replica (in-memory queue) with these flags; stopped by {@link cleanUp}. */
  async controller(flags: CommandValues): Promise<RunningController> {
    const config = readControllerConfig({ 'listen-address': '127.0.0.1:0', 'git-cache-dir': mkdtempSync(join(tmpdir(), 'attack-git-')), ...flags }, {});
    const controller = await startController(config, this.kc, pino({ level: 'silent' }));
    this.controllers.push(controller);
    await controller.ready;
    return controller;
  }

  /** Creates an object of the argoproj.io group. */
  create(namespace: string, plural: string, body: Record<string, unknown>): Promise<unknown> {
    return this.custom.createNamespacedCustomObject({ ...G, namespace, plural, body });
  }

  /** Creates an AppProject. */
  project(namespace: string, name: string, spec: Record<string, unknown>): Promise<unknown> {
    return this.create(namespace, 'appprojects', { apiVersion: 'argoproj.io/v1alpha1', kind: 'AppProject', metadata: { name }, spec });
  }

  /** Creates an ApplicationSet. */
  applicationSet(namespace: string, name: string, spec: Record<string, unknown>): Promise<unknown> {
    return this.create(namespace, 'applicationsets', { apiVersion: 'argoproj.io/v1alpha1', kind: 'ApplicationSet', metadata: { name, namespace }, spec });
  }

  /** Names of the Applications in `namespace`. */
  async applications(namespace: string): Promise<Array<{ name: string; resourceVersion: string }>> {
    const list = (await this.custom.listNamespacedCustomObject({ ...G, namespace, plural: 'applications' })) as {
      items: Array<{ metadata: { name: string; resourceVersion: string } }>;
    };
    return list.items.map((a) => ({ name: a.metadata.name, resourceVersion: a.metadata.resourceVersion }));
  }

  /** The message of the ApplicationSet's ErrorOccurred=True condition, if any. */
  async errorOf(namespace: string, name: string): Promise<string | undefined> {
    const appset = (await this.custom.getNamespacedCustomObject({ ...G, namespace, plural: 'applicationsets', name })) as {
      status?: { conditions?: Array<{ type: string; status: string; message: string }> };
    };
    return appset.status?.conditions?.find((c) => c.type === 'ErrorOccurred' && c.status === 'True')?.message;
  }

  /** Warning Events recorded on the ApplicationSet. */
  async warnings(namespace: string, name: string): Promise<string[]> {
    const events = await this.core.listNamespacedEvent({ namespace, fieldSelector: `involvedObject.name=${name},type=Warning` });
    return events.items.map((e) => e.message ?? '');
  }

  /**
   * Waits until the ApplicationSet's condition and one Warning Event name the rule, then asserts that
   * no Application of it exists.
   */
  async assertRefused(attack: Pick<AttackCase, 'namespace' | 'name' | 'rule'>, timeoutMs = 60_000): Promise<string> {
    const message = await waitFor(
      async () => {
        const current = await this.errorOf(attack.namespace, attack.name);
        return current !== undefined && attack.rule.test(current) ? current : undefined;
      },
      { what: `the refusal of ${attack.namespace}/${attack.name} matching ${String(attack.rule)}`, timeoutMs },
    );
    await waitFor(async () => (await this.warnings(attack.namespace, attack.name)).some((m) => attack.rule.test(m)) || undefined, {
      what: `a Warning Event on ${attack.name} matching ${String(attack.rule)}`,
      timeoutMs: 20_000,
    });
    const written = (await this.applications(attack.namespace)).filter((a) => a.name.startsWith(`${attack.name}-`));
    assert.deepEqual(written, [], `nothing was written for ${attack.name}`);
    return message;
  }

  /** Waits until the named Applications exist. */
  async assertApplications(namespace: string, names: readonly string[], timeoutMs = 60_000): Promise<void> {
    await waitFor(
      async () => {
        const present = new Set((await this.applications(namespace)).map((a) => a.name));
        return names.every((n) => present.has(n)) || undefined;
      },
      { what: `Applications ${names.join(', ')} in ${namespace}`, timeoutMs },
    );
  }

  /** Stops the controllers and deletes the namespaces. */
  async cleanUp(): Promise<void> {
    await Promise.all(this.controllers.map((c) => c.stop(5_000)));
    await Promise.all(this.namespaces.map((ns) => ns.delete()));
  }
}
