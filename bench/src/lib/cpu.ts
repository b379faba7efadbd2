import { execFileSync } from 'node:child_process';
import { cpus } from 'node:os';

/** CPUs of the machine (not of this process: once the bench pins itself, availableParallelism() answers 1). */
export const machineCpus = () => cpus().length;

/**
 * CPUs for the server and the load generator: different cores when there are at least two.
 * BENCH_PIN=0 pins neither (the server's threads and the load generator share every core).
 */
export function cpuPlan(): { server?: number; load?: number } {
  if (machineCpus() < 2 || process.env.BENCH_PIN === '0') return {};
  return { server: 0, load: 1 };
}

/** Pins a process to one CPU with taskset; a no-op (with a note) where taskset is missing. */
export function pinTo(pid: number, cpu: number): boolean {
  return setAffinity(pid, String(cpu));
}

/** Every thread of a process may run on `cpus` (a taskset list: "1", "0-1"); false where taskset is missing. */
export function setAffinity(pid: number, cpus: string): boolean {
  try {
    execFileSync('taskset', ['-a', '-p', '-c', cpus, String(pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** The taskset list of every CPU of the machine. */
export const allCpus = () => `0-${machineCpus() - 1}`;

export function hasTaskset(): boolean {
  try {
    execFileSync('taskset', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
