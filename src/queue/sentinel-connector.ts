import { SentinelConnector } from 'ioredis';

type ErrorEmitter = Parameters<SentinelConnector['connect']>[0];
type Connected = Awaited<ReturnType<SentinelConnector['connect']>>;
/** The connector's failover detector (private in ioredis): set `isDisconnected` just before it disconnects the connector. */
type WithDetector = { failoverDetector: { isDisconnected: boolean } | null };

/**
 * ioredis's Sentinel connector, with a failover that lands while it reconnects handled. ioredis 5.9 keeps the
 * `+switch-master` listener of the lost connection while it asks the Sentinels for the master again; when the
 * switch arrives then, the listener disconnects the connector mid-connect, the connect fails with "Connection is
 * closed." and the client gives up for good (status `end`: every later command fails). Seen in the Redis failover
 * chaos test when the master was killed. Here a disconnect by the failover detector makes the connect start over,
 * so the client asks the Sentinels again and reaches the new master; any other disconnect (a close) still ends it.
 */
export class FailoverSafeSentinelConnector extends SentinelConnector {
  private restartAfterFailover = false;

  /** Connects to the master the Sentinels name, starting over when a failover interrupts the attempt. */
  override async connect(eventEmitter: ErrorEmitter): Promise<Connected> {
    for (;;) {
      this.restartAfterFailover = false;
      try {
        return await super.connect(eventEmitter);
      } catch (error) {
        if (!this.restartAfterFailover) throw error;
      }
    }
  }

  /** Disconnects, remembering whether the failover detector asked (it marks itself disconnected first). */
  override disconnect(): void {
    const self = this as unknown as WithDetector;
    this.restartAfterFailover = self.failoverDetector?.isDisconnected === true;
    super.disconnect();
    // The detector is spent; a later disconnect (a close) must not pass for a failover.
    self.failoverDetector = null;
  }
}
