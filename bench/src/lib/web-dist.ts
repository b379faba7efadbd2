import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built web app the server serves (apps/web/dist), as the bench reads and, for BENCH_WEB_AB, points it. */
export const WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../apps/web/dist');
