import { hostname } from 'node:os';
import { pathSegment } from '../../kube/transport/request-url.js';
import { MERGE_PATCH, type KubeTransport } from '../../kube/transport/transport.js';

/** The object an Event is about. */
export interface EventSubject {
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
}

/** One Event to record. */
export interface EventRecord {
  readonly type: 'Normal' | 'Warning';
  /** Short CamelCase reason, e.g. `DeletionRefused`. */
  readonly reason: string;
  readonly message: string;
}

/** Records Kubernetes Events on ApplicationSets; repeats of the same event bump its count instead of piling up. */
export interface EventRecorder {
  record(subject: EventSubject, event: EventRecord): Promise<void>;
}

/** Component name in every Event's source. */
export const EVENT_COMPONENT = 'appset-controller';

/** Options of {@link createEventRecorder}. */
export interface EventRecorderOptions {
  /** A repeat within this window updates the earlier Event. */
  readonly dedupWindowMs?: number;
  /** Distinct events remembered for de-duplication. */
  readonly maxRemembered?: number;
  readonly now?: () => Date;
}

/** An {@link EventRecorder} writing core/v1 Events through the replica's transport. */
export function createEventRecorder(transport: KubeTransport, options: EventRecorderOptions = {}): EventRecorder {
  const client = transport;
  const windowMs = options.dedupWindowMs ?? 10 * 60_000;
  const maxRemembered = options.maxRemembered ?? 4096;
  const now = options.now ?? (() => new Date());
  const recent = new Map<string, { name: string; count: number; first: number }>();
  const instance = hostname();
  return {
    async record(subject, event) {
      const events = `/api/v1/namespaces/${pathSegment(subject.namespace)}/events`;
      const key = [subject.uid, event.type, event.reason, event.message].join('\u0000');
      const at = now();
      const previous = recent.get(key);
      if (previous && at.getTime() - previous.first < windowMs) {
        previous.count++;
        const body = { count: previous.count, lastTimestamp: at.toISOString() };
        await client.send({ method: 'PATCH', path: `${events}/${pathSegment(previous.name)}`, body, contentType: MERGE_PATCH, idempotent: true });
        return;
      }
      const created = await client.request<{ metadata?: { name?: string } }>({ method: 'POST', path: events, body: newEvent(subject, event, at, instance) });
      recent.delete(key);
      recent.set(key, { name: created.metadata?.name ?? '', count: 1, first: at.getTime() });
      if (recent.size > maxRemembered) recent.delete(recent.keys().next().value as string);
    },
  };
}

/** The core/v1 Event recording `event` on `subject` for the first time, at `at`, from this replica (`instance`). */
function newEvent(subject: EventSubject, event: EventRecord, at: Date, instance: string): object {
  return {
    metadata: { generateName: `${subject.name}.`, namespace: subject.namespace },
    involvedObject: { apiVersion: subject.apiVersion, kind: subject.kind, name: subject.name, namespace: subject.namespace, uid: subject.uid },
    type: event.type,
    reason: event.reason,
    message: event.message.slice(0, 1024),
    source: { component: EVENT_COMPONENT },
    reportingComponent: EVENT_COMPONENT,
    reportingInstance: instance,
    count: 1,
    firstTimestamp: at.toISOString(),
    lastTimestamp: at.toISOString(),
  };
}

/** An {@link EventRecorder} for `--dry-run`: logs each Event it would record and writes nothing. */
export function createLoggingEventRecorder(log: { info(object: object, message: string): void }): EventRecorder {
  return {
    record(subject, event) {
      log.info({ appset: `${subject.namespace}/${subject.name}`, event }, 'dry run: would record an Event');
      return Promise.resolve();
    },
  };
}
