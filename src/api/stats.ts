/**
 * Request counters of one client: HTTP attempts, retries and re-authentications, in total and
 * per operation.
 */

/**
 * Counters since the client was created. `requests` counts every HTTP attempt (token requests,
 * retries and re-sent requests included); `retries` counts attempts repeated after a retryable
 * failure; `reauths` counts token requests made because a token was refused (the first token
 * request is not one).
 */
export interface ClientStats {
  requests: number;
  retries: number;
  reauths: number;
  byOperation: Record<string, { requests: number; retries: number }>;
}

export class StatsCounter {
  #requests = 0;
  #retries = 0;
  #reauths = 0;
  readonly #byOperation = new Map<string, { requests: number; retries: number }>();

  request(operation: string): void {
    this.#requests += 1;
    this.#entry(operation).requests += 1;
  }

  retry(operation: string): void {
    this.#retries += 1;
    this.#entry(operation).retries += 1;
  }

  reauth(): void {
    this.#reauths += 1;
  }

  /** A copy: later requests do not change it. */
  snapshot(): ClientStats {
    const byOperation: ClientStats["byOperation"] = {};
    for (const [operation, entry] of this.#byOperation) byOperation[operation] = { ...entry };
    return {
      requests: this.#requests,
      retries: this.#retries,
      reauths: this.#reauths,
      byOperation,
    };
  }

  #entry(operation: string): { requests: number; retries: number } {
    let entry = this.#byOperation.get(operation);
    if (entry === undefined) {
      entry = { requests: 0, retries: 0 };
      this.#byOperation.set(operation, entry);
    }
    return entry;
  }
}
