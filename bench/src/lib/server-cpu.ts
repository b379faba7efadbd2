import { existsSync, readFileSync } from 'node:fs';
import type { BenchServer } from './server.ts';

/**
 * CPU seconds the server process has used (user + system, all its threads), from /proc; undefined
 * where there is no /proc. Per message it says what the server's own work costs, which a machine
 * shared with other work does not change much (the rate in messages per second it does).
 */
export function serverCpuSeconds(pid: number): number | undefined {
  const file = `/proc/${pid}/stat`;
  if (!existsSync(file)) return undefined;
  const stat = readFileSync(file, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of /proc/pid/stat, in clock ticks (100 per second on Linux).
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** The run's successes (messages, requests) per CPU-second of the server process (on PostgreSQL the database's own CPU is not in it). */
export async function withServerCpu<T extends { ok: number }>(
  server: BenchServer,
  run: () => Promise<T>,
): Promise<T & { perServerCpuSecond?: number }> {
  const before = serverCpuSeconds(server.pid);
  const result = await run();
  const after = serverCpuSeconds(server.pid);
  const used = before !== undefined && after !== undefined ? after - before : 0;
  return used > 0 ? { ...result, perServerCpuSecond: result.ok / used } : result;
}
