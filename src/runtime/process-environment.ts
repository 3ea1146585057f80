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
