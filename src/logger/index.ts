import { pino, type Logger } from 'pino';

/**
 * The process's logger: JSON lines in production and wherever the output is not a terminal (log
 * collectors parse them), pino-pretty's coloured lines on a developer's terminal. `fd` 2 sends the
 * logs to stderr, for commands whose stdout is their result (the CLI's `--json`).
 */
export function createLogger(level: string, fd: 1 | 2 = 1): Logger {
  const terminal = (fd === 1 ? process.stdout : process.stderr).isTTY === true;
  if (terminal && process.env.NODE_ENV !== 'production') {
    return pino({ level, transport: { target: 'pino-pretty', options: { destination: fd } } });
  }
  return pino({ level }, pino.destination(fd));
}
