/**
 * Environment variables a replica's process is started with: the image sets them (Dockerfile `ENV`), and
 * the tests and benchmarks that start replicas as processes set the same. They are read once, as the
 * process starts, so the process cannot set them for itself.
 */
export const REPLICA_PROCESS_ENV: Readonly<Record<string, string>> = {
  // glibc gives threads that allocate at the same time malloc arenas of their own (up to 8 per core), and
  // each arena keeps its high-water mark; Node's helper threads (V8's compiler and collector, libuv's
  // pool) allocate beside the main thread. With two arenas a replica settled at 1,000 Applications held
  // 3.5-4.7 MiB less (three paired runs, docs/benchmarks.md), with no measurable cost in CPU.
  MALLOC_ARENA_MAX: '2',
};

/**
 * Node.js options a replica's process is started with, before the script: the image's ENTRYPOINT names
 * them, and the tests and benchmarks that start replicas as processes pass the same. They are arguments,
 * not NODE_OPTIONS, so that an install setting NODE_OPTIONS of its own (say --max-old-space-size) keeps them.
 */
export const REPLICA_NODE_ARGS: readonly string[] = [
  // V8's young generation grows to semi-spaces of 64 MiB under a converge on Node 24, and regrows page by
  // page after every idle collection shrinks it. Capped at 16 MiB (seven paired 10,000-Application converges,
  // docs/benchmarks.md, session 31): the replica's CPU per unit of the API server's 0.144 against 0.156,
  // half the page faults, 70-80 MiB less resident after a burst and 3-6 MiB less once settled.
  '--max-semi-space-size=16',
];
