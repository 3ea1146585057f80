import { createRequire } from 'node:module';
import type * as NodeHttp from 'node:http';

// Why not `import ... from 'node:http'`: an ESM import of a builtin builds its namespace by reading every
// export, and node:http's lazy WebSocket, MessageEvent and CloseEvent getters then load Node's bundled
// undici (2.4 MiB of heap and its compiled code) in every process, though nothing here uses it. A
// require reads no export. test/runtime/module-footprint.test.ts keeps undici out of a replica.

/** Node's http module, loaded without loading undici. */
export const nodeHttp: typeof NodeHttp = createRequire(import.meta.url)('node:http') as typeof NodeHttp;
