import type { BenchContext } from '../lib/context.ts';
import type { BenchServer } from '../lib/server.ts';
export async function measureWebVitals(_ctx: BenchContext, _server: BenchServer): Promise<void> {}
