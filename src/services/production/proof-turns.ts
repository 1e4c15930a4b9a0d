import { RateLimitedError } from '../../domain/errors';

/** Proofs this process renders at once; the rest wait their turn, first come first served. */
const PROOFS_AT_ONCE = 2;
/** What a client asking for a second proof while its first renders is told to wait. */
const PROOF_RETRY_AFTER_SECONDS = 5;

/**
 * Whose proof renders now. A proof renders a whole book within its request, so a client firing many
 * at once would fill the render process and stall every other client's proofs behind its own: each
 * client and environment has at most one proof rendering or waiting in this process (a second is
 * refused with 429 `PROOF_IN_PROGRESS`), and the process renders `PROOFS_AT_ONCE`. With one waiter
 * per client, first come first served is a round robin over clients.
 */
export class ProofTurns {
  private readonly clients = new Set<string>();
  private readonly waiting: (() => void)[] = [];
  private rendering = 0;

  constructor(private readonly atOnce = PROOFS_AT_ONCE) {}

  async run<T>(client: string, render: () => Promise<T>): Promise<T> {
    if (this.clients.has(client))
      throw new RateLimitedError(
        'id: a proof of this client is being made; a client makes one proof at a time, try again when it is answered',
        PROOF_RETRY_AFTER_SECONDS,
        'PROOF_IN_PROGRESS',
      );
    this.clients.add(client);
    try {
      if (this.rendering < this.atOnce) this.rendering++;
      else await new Promise<void>((turn) => this.waiting.push(turn));
      try {
        return await render();
      } finally {
        // The slot passes straight to the next in line, or is freed.
        const next = this.waiting.shift();
        if (next) next();
        else this.rendering--;
      }
    } finally {
      this.clients.delete(client);
    }
  }
}
