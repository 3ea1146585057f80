import { createServer } from 'node:net';

/** Asks the kernel for a loopback TCP port that is free right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => {
        if (address && typeof address === 'object') resolve(address.port);
        else reject(new Error('free-port: the kernel gave no port'));
      });
    });
  });
}
