import { pino, type DestinationStream, type Logger } from 'pino';
import { CENSORED, REDACT_PATHS, errorForLog, requestForLog, scrubLogLine } from './redaction';

/**
 * The process's logger: JSON lines in production and wherever the output is not a terminal (log
 * collectors parse them), pino-pretty's coloured lines on a developer's terminal. `fd` 2 sends the
 * logs to stderr, for commands whose stdout is their result (the CLI's `--json`); a stream takes
 * them elsewhere (tests read what a run logged). Either way no line carries an editor credential,
 * an e-mail address, a secret or a database statement's values (./redaction.ts).
 */
export function createLogger(level: string, destination: 1 | 2 | DestinationStream = 1): Logger {
  const options = {
    level,
    redact: { paths: REDACT_PATHS, censor: CENSORED },
    serializers: { req: requestForLog, err: errorForLog },
    hooks: { streamWrite: scrubLogLine },
  };
  if (typeof destination !== 'number') return pino(options, destination);
  const terminal = (destination === 1 ? process.stdout : process.stderr).isTTY === true;
  if (terminal && process.env.NODE_ENV !== 'production') {
    return pino({ ...options, transport: { target: 'pino-pretty', options: { destination } } });
  }
  // Written asynchronously, several lines a write: one synchronous write per line cost a hot read
  // a visible share of its CPU (docs/performance.md). pino flushes what is buffered when the process exits.
  return pino(options, pino.destination({ dest: destination, sync: false }));
}
