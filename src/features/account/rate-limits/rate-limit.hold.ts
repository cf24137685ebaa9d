/**
 * A bounded penalty for a key that keeps sending while it is refused (a client ignoring 429 and Retry-After):
 * its next refusals are answered after a short hold instead of at once, so a flood of such requests on N
 * connections comes back at most N times per hold instead of as fast as the process can refuse them (every
 * refusal still costs the process its parse, authentication and answer). A hold is a timer: it never delays
 * another key's request. The first refusal after an admission (or after the Retry-After of the last one) is
 * answered at once, and past the per-key (and per-process) count of held answers refusals are immediate again.
 */

export interface HoldOptions {
  /** Longest hold of one refusal, in ms (0: never hold). A refusal is held min(this, its Retry-After). */
  ms: number;
  /** Answers of one key held at once; past it, that key's refusals are answered at once. */
  perKey: number;
  /** Answers held at once by the process over all keys. */
  total: number;
}

/** Keys remembered as refused; past it the oldest memory is dropped (a key then gets one immediate refusal). */
const MAX_KEYS = 100_000;

export class RefusalHold {
  /** Until when each recently refused key is refused (its last Retry-After), ms since the epoch. */
  private readonly refusedUntil = new Map<string, number>();
  private readonly heldPerKey = new Map<string, number>();
  private heldTotal = 0;

  constructor(private readonly options: HoldOptions) {}

  /** Answers held now (of `apiKeyId`, or of every key). */
  held(apiKeyId?: string): number {
    return apiKeyId === undefined ? this.heldTotal : (this.heldPerKey.get(apiKeyId) ?? 0);
  }

  /** The key was admitted: its next refusal is answered at once. */
  admitted(apiKeyId: string): void {
    this.refusedUntil.delete(apiKeyId);
  }

  /**
   * A refusal of `apiKeyId` with `retryAfter` seconds: how many ms to hold its answer (0: answer now). A
   * non-zero hold must be ended with `release` once the answer is sent or the client is gone.
   */
  refused(apiKeyId: string, retryAfter: number, now = Date.now()): number {
    const until = this.refusedUntil.get(apiKeyId);
    const repeated = until !== undefined && now < until;
    if (this.refusedUntil.size >= MAX_KEYS && until === undefined) this.refusedUntil.delete(this.refusedUntil.keys().next().value!);
    this.refusedUntil.set(apiKeyId, Math.max(until ?? 0, now + retryAfter * 1000));
    const { ms, perKey, total } = this.options;
    if (!repeated || ms <= 0 || this.held(apiKeyId) >= perKey || this.heldTotal >= total) return 0;
    this.heldPerKey.set(apiKeyId, this.held(apiKeyId) + 1);
    this.heldTotal += 1;
    return Math.min(ms, retryAfter * 1000);
  }

  release(apiKeyId: string): void {
    const left = this.held(apiKeyId) - 1;
    if (left > 0) this.heldPerKey.set(apiKeyId, left);
    else this.heldPerKey.delete(apiKeyId);
    this.heldTotal = Math.max(0, this.heldTotal - 1);
  }
}
