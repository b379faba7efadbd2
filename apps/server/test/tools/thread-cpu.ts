import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU seconds per thread of this process (Linux /proc; empty elsewhere): the embedded database runs
 * on a thread of its own (db/pglite-remote.ts), and its time per request is what bounds the
 * one-session figures, which the process's total CPU (process.cpuUsage) does not show.
 */
export function threadCpu(): Map<number, number> {
  const seconds = new Map<number, number>();
  let tids: string[];
  try {
    tids = readdirSync('/proc/self/task');
  } catch {
    return seconds;
  }
  for (const tid of tids) {
    try {
      // schedstat's first field: time on a CPU in nanoseconds (stat's utime and stime count 10 ms ticks).
      seconds.set(Number(tid), Number(readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ')[0]) / 1e9);
    } catch {
      // The thread ended meanwhile.
    }
  }
  return seconds;
}

/**
 * Since `before`, in seconds: the main thread's CPU, the busiest other thread's (the database's), and
 * the rest summed (V8's garbage collector helpers, libuv's pool): on one pinned core they count too.
 */
export function threadCpuSince(before: Map<number, number>): { main: number; database: number; others: number } {
  const now = threadCpu();
  const spent = [...now].filter(([tid]) => tid !== process.pid).map(([tid, s]) => s - (before.get(tid) ?? 0));
  const database = Math.max(0, ...spent);
  const others = spent.reduce((sum, s) => sum + s, 0) - database;
  return { main: (now.get(process.pid) ?? 0) - (before.get(process.pid) ?? 0), database, others };
}

/**
 * Minor page faults of this process so far (Linux /proc; 0 elsewhere). On a paravirtualized machine
 * each one costs microseconds of the faulting thread's CPU (docs/performance-choices.md "Per-request hidden classes").
 */
export function minorFaults(): number {
  try {
    // stat's fields after the command's closing parenthesis: state is the 3rd, minflt the 10th.
    return Number(readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ')[7]);
  } catch {
    return 0;
  }
}
