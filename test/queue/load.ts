import { preciseNow, workerKey } from './worker-config.js';

/** Adds `keys` in order with `parallel` adds in flight; returns each key's last add time (taken before the call). */
export async function addAll(
  queue: { add(key: string): Promise<void> },
  keys: string[],
  parallel: number,
  onError?: (error: unknown) => Promise<void>,
): Promise<Map<string, number>> {
  const lastAdds = new Map<string, number>();
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < keys.length) {
      const key = keys[next++] as string;
      for (;;) {
        const at = preciseNow();
        try {
          await queue.add(key);
          lastAdds.set(key, Math.max(lastAdds.get(key) ?? 0, at));
          break;
        } catch (error) {
          if (!onError) throw error;
          await onError(error);
        }
      }
    }
  };
  await Promise.all(Array.from({ length: parallel }, lane));
  return lastAdds;
}

/** `count` adds over `keyCount` keys, each key equally often, in random order. */
export function shuffledAdds(count: number, keyCount: number): string[] {
  const keys = Array.from({ length: count }, (_, i) => workerKey(i % keyCount));
  for (let i = keys.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [keys[i], keys[j]] = [keys[j] as string, keys[i] as string];
  }
  return keys;
}
