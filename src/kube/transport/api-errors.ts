import type { IncomingMessage } from 'node:http';
import { AppsetError } from '../../model/errors.js';

/** A non-2xx answer of the API server, with the Status it sent. */
export class KubeApiError extends AppsetError {
  constructor(
    readonly status: number,
    /** The Status's own reason (`NotFound`, `Conflict`, `Expired`, ...), when the server gave one. */
    readonly statusReason: string | undefined,
    message: string,
    /** Delay the server asked for (429/503 Retry-After), in ms. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'KubeApiError';
  }

  /** The server's Status reason, else the class name. */
  override get reason(): string {
    return this.statusReason ?? this.name;
  }
}

/** 410 Gone: the resourceVersion or continue token is older than what the server still keeps; list again. */
export class GoneError extends KubeApiError {
  constructor(reason: string | undefined, message: string) {
    super(410, reason, message);
    this.name = 'GoneError';
  }
}

/** A Kubernetes `Status` object as sent in error bodies and watch ERROR events. */
export interface KubeStatus {
  kind?: string;
  code?: number;
  reason?: string;
  message?: string;
}

/** The error a Status body stands for: {@link GoneError} for 410, else {@link KubeApiError}. */
export function errorFromStatus(httpStatus: number, status: KubeStatus | undefined, retryAfterMs?: number): KubeApiError {
  const code = status?.code ?? httpStatus;
  const message = `HTTP ${code}${status?.reason ? ` ${status.reason}` : ''}: ${status?.message ?? 'no message'}`;
  return code === 410 ? new GoneError(status?.reason, message) : new KubeApiError(code, status?.reason, message, retryAfterMs);
}

/** The Status object of an error body; a body that is not JSON becomes its message. */
export function parseStatus(body: string): KubeStatus | undefined {
  try {
    const parsed = JSON.parse(body) as KubeStatus | null;
    return parsed && typeof parsed === 'object' ? parsed : undefined;
  } catch {
    return body ? { message: body.slice(0, 200) } : undefined;
  }
}

/** The delay a 429/503 answer asked for (Retry-After), in ms. */
export function retryAfter(response: IncomingMessage): number | undefined {
  return retryAfterMs(response.headers['retry-after']);
}

/** A Retry-After header's seconds, in ms; undefined when absent or not a positive number. */
export function retryAfterMs(header: string | undefined): number | undefined {
  const seconds = Number(header);
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : undefined;
}

/** The whole body of a response. */
export async function readBody(response: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of response) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
