import type { Cluster, Redis } from 'ioredis';

/** The fingerprint of a successful reconcile's inputs and the Application names it wanted (see unchanged-inputs.ts). */
export interface RememberedInputs {
  readonly fingerprint: string;
  readonly desiredNames: readonly string[];
}

/**
 * Every replica's last successful reconcile of each ApplicationSet, by memo key, where every replica can
 * read it: the fingerprint is taken from what the API server holds (resourceVersions, generated
 * parameters), so it means the same on any replica, and the resync's replica can tell which keys
 * another replica left as they are.
 */
export interface SharedFingerprints {
  /** Every remembered entry (one read per full resync). */
  readAll(): Promise<Map<string, RememberedInputs>>;
  write(key: string, remembered: RememberedInputs): Promise<void>;
  remove(key: string): Promise<void>;
}

/** In this process only (the in-memory queue's single replica). */
export function createLocalFingerprints(): SharedFingerprints {
  const entries = new Map<string, RememberedInputs>();
  return {
    readAll: () => Promise.resolve(new Map(entries)),
    write: (key, remembered) => Promise.resolve(void entries.set(key, remembered)),
    remove: (key) => Promise.resolve(void entries.delete(key)),
  };
}

/**
 * In one Redis hash beside the queue. Lost with Redis's data like the queue itself, which is safe: a key
 * without an entry is reconciled by the next resync.
 */
export function createRedisFingerprints(client: Redis | Cluster, keyPrefix: string): SharedFingerprints {
  const hash = `${keyPrefix}:input-fingerprints`;
  return {
    async readAll() {
      const entries = new Map<string, RememberedInputs>();
      for (const [key, value] of Object.entries(await client.hgetall(hash))) {
        const parsed = parseRemembered(value);
        if (parsed) entries.set(key, parsed);
      }
      return entries;
    },
    async write(key, remembered) {
      await client.hset(hash, key, JSON.stringify(remembered));
    },
    async remove(key) {
      await client.hdel(hash, key);
    },
  };
}

/** An entry as stored, or undefined for anything else (written by another version: the key is simply reconciled). */
function parseRemembered(value: string): RememberedInputs | undefined {
  try {
    const parsed = JSON.parse(value) as Partial<RememberedInputs>;
    if (typeof parsed.fingerprint !== 'string' || !Array.isArray(parsed.desiredNames)) return undefined;
    if (!parsed.desiredNames.every((name) => typeof name === 'string')) return undefined;
    return { fingerprint: parsed.fingerprint, desiredNames: parsed.desiredNames };
  } catch {
    return undefined;
  }
}
