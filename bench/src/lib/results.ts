import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CpuSpeedProbe } from './cpu-speed.ts';

/** One figure of the run, beside its same-run baseline and the issue's target. */
export interface ResultRow {
  group: string;
  name: string;
  value: number;
  unit: string;
  /** Secondary figures of the same measurement (p50, p99, errors...). */
  detail?: string;
  baseline?: { name: string; value: number; unit: string };
  /** value / baseline (or baseline / value for latencies, so > 1 always means "better than baseline"). */
  ratio?: number;
  target?: string;
  /** null: no target, or not measurable in this run. */
  met?: boolean | null;
  note?: string;
  /** How fast the measured CPU (the server's, or the bench's own for a database phase) ran, against the machine's best (cpu-speed.ts). */
  cpuSpeed?: number;
}

/** Above this 1-minute load average before a phase, its figures are not judged against targets. */
export const MAX_LOAD_TO_JUDGE = 1.5;

/**
 * Below this speed of the server's CPU during a measurement (against the fastest this machine has
 * run the probe), its figures are not judged: a core the host runs at about half speed showed
 * 0.5-0.6 on the probe; a quiet one 0.9-1 with the server busy on it.
 */
export const MIN_CPU_SPEED_TO_JUDGE = 0.8;

/** The machine's load averages (1, 5 and 15 minutes), as printed. */
export const loadText = (l: number[] = loadavg()) => l.map((n) => n.toFixed(2)).join(' ');

/**
 * How long a judged run waits before a phase for the load to settle (`BENCH_SETTLE_SECONDS`, 0: not at
 * all). The 1-minute average decays by e in a minute: after a phase that held both cores (about 2) it is
 * under 1.5 in 20-40 s when nothing else runs; a machine still busy after this long is busy.
 */
const SETTLE_SECONDS = Math.max(0, Number(process.env.BENCH_SETTLE_SECONDS ?? 120) || 0);

async function settled(): Promise<void> {
  const started = Date.now();
  while (loadavg()[0] > MAX_LOAD_TO_JUDGE && Date.now() - started < SETTLE_SECONDS * 1000) {
    await new Promise((resolve) => setTimeout(resolve, 2_000));
  }
  const waited = (Date.now() - started) / 1000;
  if (waited >= 1) console.log(`  waited ${waited.toFixed(0)} s for the load average to settle`);
}

export class Results {
  readonly rows: ResultRow[] = [];
  readonly failures: { measurement: string; error: string }[] = [];
  /** Each phase's load averages before and after it, and whether its figures were judged. */
  readonly phases: { phase: string; loadBefore: number[]; loadAfter?: number[]; judged: boolean; cpuSpeed?: number }[] = [];
  /** Set while a phase that started on a busy machine runs: why its figures are not judged. */
  private notJudged: string | undefined;
  /** Since when the next figure was measured (the phase's start, or the figure before it): the probe's window. */
  private windowMark = 0;
  private phaseMark = 0;

  /**
   * @param judge false for the tiny smoke run: toy-scale figures are not held against targets.
   * @param probes the speed probes on the server's CPU and on this process's (cpu-speed.ts); without
   * them figures are judged on the load alone.
   */
  constructor(
    private readonly judge = true,
    private readonly probes: { server?: CpuSpeedProbe; bench?: CpuSpeedProbe } = {},
  ) {}

  /** The probe of the running phase's CPU. */
  private speed: CpuSpeedProbe | undefined;

  /**
   * Starts a phase: waits up to SETTLE_SECONDS for the 1-minute load average to fall to
   * MAX_LOAD_TO_JUDGE (the phase before leaves it high, and back-to-back whole runs would otherwise
   * judge nothing after their first phase), prints it, and when it is still above says so and leaves
   * the phase's figures unjudged (a busy machine's figures are neither met nor missed). `runsOn`:
   * whose CPU the phase's figures measure, the server's or this process's (the database phases).
   */
  async beginPhase(phase: string, runsOn: 'server' | 'bench' = 'server'): Promise<void> {
    if (this.judge) await settled();
    const loadBefore = loadavg();
    const judged = loadBefore[0] <= MAX_LOAD_TO_JUDGE;
    this.phases.push({ phase, loadBefore, judged });
    console.log(`  load average before ${phase}: ${loadText(loadBefore)}`);
    this.notJudged = judged
      ? undefined
      : `not judged: load average ${loadBefore[0].toFixed(2)} before the phase (above ${MAX_LOAD_TO_JUDGE})`;
    if (this.notJudged) console.log(`  targets of ${phase} are not judged: the 1-minute load average is above ${MAX_LOAD_TO_JUDGE}`);
    this.speed = this.probes[runsOn];
    this.phaseMark = this.windowMark = this.speed?.mark() ?? 0;
  }

  endPhase(phase: string): void {
    const record = [...this.phases].reverse().find((p) => p.phase === phase);
    const loadAfter = loadavg();
    if (record) record.loadAfter = loadAfter;
    console.log(`  load average after ${phase}: ${loadText(loadAfter)}`);
    const reading = this.speed?.readingSince(this.phaseMark);
    if (reading) {
      if (record) record.cpuSpeed = reading.speed;
      console.log(
        `  speed of ${this.speed?.label} during ${phase}: ${reading.speed}x of this machine's best (${reading.medianMicros} us per probe, best ${reading.bestMicros})`,
      );
    }
    this.notJudged = undefined;
  }

  add(row: ResultRow): void {
    if (!this.judge && row.met !== undefined) row = { ...row, met: null };
    if (this.notJudged && row.target) row = { ...row, met: null, note: row.note ? `${row.note}; ${this.notJudged}` : this.notJudged };
    const reading = this.speed?.readingSince(this.windowMark);
    if (this.speed) this.windowMark = this.speed.mark();
    if (reading) {
      row = { ...row, cpuSpeed: reading.speed };
      if (reading.speed < MIN_CPU_SPEED_TO_JUDGE && row.target && row.met !== null) {
        const why = `not judged: ${this.speed?.label} ran at ${reading.speed}x of this machine's best during the measurement (below ${MIN_CPU_SPEED_TO_JUDGE})`;
        row = { ...row, met: null, note: row.note ? `${row.note}; ${why}` : why };
      }
    }
    this.rows.push(row);
    printRow(row);
  }

  fail(measurement: string, err: unknown): void {
    const error = err instanceof Error ? err.message : String(err);
    this.failures.push({ measurement, error });
    console.log(`  !! ${measurement}: ${error}`);
  }
}

const fmt = (n: number) => (Math.abs(n) >= 100 ? Math.round(n).toLocaleString('en-US') : String(Math.round(n * 100) / 100));

function printRow(r: ResultRow): void {
  const base = r.baseline ? ` | base ${r.baseline.name}: ${fmt(r.baseline.value)} ${r.baseline.unit}` : '';
  const ratio = r.ratio !== undefined ? ` | x${fmt(r.ratio)}` : '';
  const target = r.target ? ` | target ${r.target}: ${r.met === true ? 'MET' : r.met === false ? 'MISSED' : 'n/a'}` : '';
  const note = r.note ? ` | ${r.note}` : '';
  const speed = r.cpuSpeed !== undefined ? ` | CPU ${r.cpuSpeed}x` : '';
  console.log(
    `  ${r.group} / ${r.name}: ${fmt(r.value)} ${r.unit}${r.detail ? ` (${r.detail})` : ''}${base}${ratio}${target}${speed}${note}`,
  );
}

/** Why a figure with a target was not judged, in the table's words. */
function unjudged(note: string | undefined): string {
  if (note?.includes('load average')) return 'not judged (load)';
  if (note?.includes('CPU ran at')) return 'not judged (slow CPU)';
  return '';
}

/** The final table (markdown, so it can be pasted into docs/performance.md as is). */
export function markdownTable(rows: ResultRow[]): string {
  const lines = [
    '| Group | Measurement | Figure | Baseline (same run) | Ratio | CPU speed | Target | Met |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const r of rows) {
    const figure = `${fmt(r.value)} ${r.unit}${r.detail ? ` (${r.detail})` : ''}`;
    const base = r.baseline ? `${r.baseline.name}: ${fmt(r.baseline.value)} ${r.baseline.unit}` : '';
    const met = r.met === true ? 'met' : r.met === false ? '**missed**' : r.target ? unjudged(r.note) : '';
    const speed = r.cpuSpeed !== undefined ? `${r.cpuSpeed}x` : '';
    lines.push(
      `| ${r.group} | ${r.name} | ${figure} | ${base} | ${r.ratio !== undefined ? `${fmt(r.ratio)}x` : ''} | ${speed} | ${r.target ?? ''} | ${met} |`,
    );
  }
  return lines.join('\n');
}

const RESULTS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../results');

/** Writes bench/results/<size>-<timestamp>.json and <size>-latest.json; returns the first path. */
export function writeResults(size: string, payload: object): string {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const file = path.join(RESULTS_DIR, `${size}-${stamp}.json`);
  const text = `${JSON.stringify(payload, null, 2)}\n`;
  writeFileSync(file, text);
  writeFileSync(path.join(RESULTS_DIR, `${size}-latest.json`), text);
  return file;
}
