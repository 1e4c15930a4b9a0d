import net from 'node:net';

/**
 * PORT held by another process, said plainly (undefined when free). Checked before the service builds
 * anything (a database, the engine), so that a start that cannot listen stops at once; `port` 0 is
 * always free.
 */
export async function portTakenBeforeStart(host: string, port: number): Promise<string | undefined> {
  return port !== 0 && !(await portIsFree(host, port)) ? portTakenMessage(host, port) : undefined;
}

export function portTakenMessage(host: string, port: number): string {
  return (
    `PORT ${port} is already in use on ${host}: another process listens there ` +
    `(\`ss -ltnp 'sport = :${port}'\` names it). Stop it, or start this service with another PORT.`
  );
}

export function isPortTaken(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'EADDRINUSE';
}

/** Binds the address for a moment, as the service would. */
function portIsFree(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve(true)));
  });
}
