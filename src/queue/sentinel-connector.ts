import { SentinelConnector } from 'ioredis';

type ErrorEmitter = Parameters<SentinelConnector['connect']>[0];
type Connected = Awaited<ReturnType<SentinelConnector['connect']>>;
/** The connector's failover detector (private in ioredis): set `isDisconnected` just before it disconnects the connector. */
type WithDetector = { failoverDetector: { isDisconnected: boolean } | null };

/**
 * ioredis's Sentinel connector, with two failover races fixed, both seen in the Redis failover tests:
 *
 * - A failover that lands while the client reconnects. ioredis 5.9 keeps the `+switch-master` listener of the
 *   lost connection while it asks the Sentinels for the master again; when the switch arrives then, the listener
 *   disconnects the connector mid-connect, the connect fails with "Connection is closed." and the client gives up
 *   for good (status `end`: every later command fails). Here the connect starts over and reaches the new master.
 * - Acknowledgements from the old master after the switch. ioredis half-closes the old connection (`end()`) and
 *   destroys it only 2 s later, still reading replies meanwhile; a master that was frozen (a partition, SIGSTOP)
 *   and comes back within that time executes the commands waiting in its socket and acknowledges them, but the
 *   Sentinels demote it seconds later and its data is replaced: acknowledged adds vanished (8 of 8 in flight).
 *   Here the old connection is destroyed at once, so no reply from the old master is read and ioredis resends
 *   every unanswered command to the new master.
 *
 * Any other disconnect (a close) behaves as ioredis's own.
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

  /** Disconnects; when the failover detector asks (it marks itself disconnected first), drops the old connection at once. */
  override disconnect(): void {
    const self = this as unknown as WithDetector;
    const failover = self.failoverDetector?.isDisconnected === true;
    this.restartAfterFailover = failover;
    const stream = this.stream as Connected | undefined;
    super.disconnect();
    if (failover) stream?.destroy();
    // The detector is spent; a later disconnect (a close) must not pass for a failover.
    self.failoverDetector = null;
  }
}
