import { describe, expect, it } from 'vitest';
import { ProofTurns } from '../../../src/services/production/proof-turns';

/** A render that ends when the test says so. */
function held() {
  let end!: () => void;
  const done = new Promise<void>((resolve) => {
    end = resolve;
  });
  return { end, render: () => done };
}

describe('ProofTurns: whose proof renders now', () => {
  it('refuses a second proof of a client while its first renders, and takes it again once answered', async () => {
    const turns = new ProofTurns(2);
    const first = held();
    const rendering = turns.run('a/dev', first.render);
    await expect(turns.run('a/dev', async () => 'again')).rejects.toMatchObject({
      code: 'PROOF_IN_PROGRESS',
      retryAfterSeconds: 5,
    });
    // Another environment of the same client is another queue.
    expect(await turns.run('a/prod', async () => 'live')).toBe('live');
    first.end();
    await rendering;
    expect(await turns.run('a/dev', async () => 'next')).toBe('next');
  });

  it('renders a few at once and lets the others wait their turn in the order they came', async () => {
    const turns = new ProofTurns(2);
    const started: string[] = [];
    const renders = new Map(['a', 'b', 'c', 'd'].map((client) => [client, held()]));
    const runs = [...renders].map(([client, render]) =>
      turns.run(client, () => {
        started.push(client);
        return render.render();
      }),
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual(['a', 'b']);
    renders.get('b')!.end();
    await runs[1];
    expect(started).toEqual(['a', 'b', 'c']);
    renders.get('a')!.end();
    await runs[0];
    expect(started).toEqual(['a', 'b', 'c', 'd']);
    renders.get('c')!.end();
    renders.get('d')!.end();
    await Promise.all(runs);
  });

  it('gives the turn back when a render fails', async () => {
    const turns = new ProofTurns(1);
    await expect(
      turns.run('a', async () => {
        throw new Error('render failed');
      }),
    ).rejects.toThrow('render failed');
    expect(await turns.run('a', async () => 'ok')).toBe('ok');
    expect(await turns.run('b', async () => 'ok')).toBe('ok');
  });
});
