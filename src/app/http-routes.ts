import type { Logger } from 'pino';
import type { ControllerConfig } from '../config/controller-config.js';
import type { ControllerInformers } from '../controller/routing/caches.js';
import { routePush, routeScmChange } from '../controller/routing/webhook-routing.js';
import { scmEventKeys } from '../model/scm-event.js';
import { startOperationsServer, type OperationsServer } from '../server/http-server.js';
import { webhookSecretsFrom } from '../server/webhook/providers.js';
import { createWebhookHandler } from '../server/webhook/webhook-handler.js';
import type { Observers } from './observers.js';
import type { Pipeline } from './pipeline.js';
import type { SharedState } from './shared-state.js';

/** What the HTTP routes of a replica reach. */
export interface RouteParts {
  readonly config: ControllerConfig;
  readonly informers: ControllerInformers;
  readonly shared: SharedState;
  readonly observers: Observers;
  readonly pipeline: Pipeline;
  readonly namespaceAllowed: (namespace: string) => boolean;
  readonly log: Logger;
}

/** Starts the operations server: /metrics, /healthz, /readyz (every informer synced, the queue answers) and /api/webhook. */
export function startHttpRoutes(parts: RouteParts): Promise<OperationsServer> {
  const { config, informers, shared, observers, pipeline, log } = parts;
  return startOperationsServer({
    host: config.listenAddress.host,
    port: config.listenAddress.port,
    registry: observers.registry,
    log,
    routes: {
      '/api/webhook': createWebhookHandler({
        secrets: () => webhookSecretsFrom(informers.webhookSecret?.store.list()[0]),
        onPush: async (push) => {
          // Counted before anything is enqueued: whichever replica runs a woken key then reads refs after this push.
          await shared.pushEpochs.advance(push.repoURLs);
          return routePush(push, informers.applicationSets.store, pipeline.enqueue, parts.namespaceAllowed);
        },
        onScmChange: async (change) => {
          // As for pushes: shared listings fetched before this event are not served to the keys it wakes, on any replica.
          await shared.pushEpochs.advance(scmEventKeys(change));
          return routeScmChange(change, informers.applicationSets.store, pipeline.enqueue, parts.namespaceAllowed);
        },
        log,
        metrics: { requests: observers.metrics.webhookRequests, enqueuedPerPush: observers.metrics.webhookEnqueuedPerPush },
      }),
    },
    readiness: [
      ...informers.all.map((informer) => ({
        name: `informer ${informer.health().path}`,
        check: () => (informer.health().synced ? Promise.resolve() : Promise.reject(new Error('not synced yet'))),
      })),
      { name: 'work queue', check: () => shared.queue.depth().then(() => undefined) },
    ],
  });
}
