import pino, { type DestinationStream } from 'pino';
import pretty from 'pino-pretty';

export type LogFormat = 'json' | 'pretty';

/** Unset: readable lines for a person at a terminal, JSON lines for a collector (a pipe, a file, systemd). */
export const logFormatFor = (format: LogFormat | undefined, stdoutIsTty = Boolean(process.stdout.isTTY)): LogFormat =>
  format ?? (stdoutIsTty ? 'pretty' : 'json');

/** One line per record: time, level, message, then the record's fields (no pid or host name). */
export function prettyStream(opts: { colorize?: boolean; destination?: NodeJS.WritableStream | number } = {}): DestinationStream {
  return pretty({
    colorize: opts.colorize ?? Boolean(process.stdout.isTTY),
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname',
    singleLine: true,
    sync: true,
    destination: opts.destination ?? 1,
  });
}

/** pino with secrets redacted wherever they could appear in a logged object; `stream` replaces stdout (tests). */
export function createLogger(level: string, format?: LogFormat, stream?: DestinationStream) {
  const options = {
    level,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'req.headers["webhook-signature"]',
        'res.headers["set-cookie"]',
        '*.password',
        '*.newPassword',
        '*.currentPassword',
        '*.refreshToken',
        '*.accessToken',
        '*.token',
        '*.apiKey',
      ],
      censor: '[redacted]',
    },
  };
  if (logFormatFor(format) === 'pretty')
    return pino(options, prettyStream(stream ? { destination: stream as NodeJS.WritableStream, colorize: false } : {}));
  return stream ? pino(options, stream) : pino(options);
}
