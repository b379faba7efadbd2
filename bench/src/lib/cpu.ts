import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';

/** CPUs for the server and the load generator: different cores when there are at least two. */
export function cpuPlan(): { server?: number; load?: number } {
  if (availableParallelism() < 2) return {};
  return { server: 0, load: 1 };
}

/** Pins a process to one CPU with taskset; a no-op (with a note) where taskset is missing. */
export function pinTo(pid: number, cpu: number): boolean {
  try {
    execFileSync('taskset', ['-a', '-p', '-c', String(cpu), String(pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export function hasTaskset(): boolean {
  try {
    execFileSync('taskset', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
