import pino from 'pino';

/** pino with secrets redacted wherever they could appear in a logged object. */
export function createLogger(level: string) {
  return pino({
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
  });
}
