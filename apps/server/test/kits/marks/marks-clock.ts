import { MARKS_READ_EVERY_MS } from '../../../src/db/tenant-marks.ts';

/**
 * For tests of the list marks kept in memory (src/db/tenant-marks.ts): a function that moves the test
 * clock from `start` past the marks' read interval at each call (a few calls stay within the access
 * tokens' lifetime), so that the next deep page reads a tenant's marks again.
 */
export function marksClock(clock: { set(at: Date): void }, start: Date): () => void {
  let minutes = 0;
  return () => {
    minutes += MARKS_READ_EVERY_MS / 60_000 + 0.01;
    clock.set(new Date(start.getTime() + minutes * 60_000));
  };
}
