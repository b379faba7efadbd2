import type { ResultRow } from './results.ts';
import { median } from './stats.ts';

/**
 * Several whole runs of one size summed up (BENCH_RUNS=3, docs/performance.md "Running"): each
 * figure's median with its spread (lowest and highest run), and the target judged on the runs:
 * met when a majority of the runs met it, which for a threshold on one figure is the median meeting
 * it. A run whose phase the load guard refused to judge counts as neither; with fewer judged runs
 * than a majority the row is not judged.
 */
export interface RunsRow {
  group: string;
  name: string;
  unit: string;
  values: number[];
  /** The measured CPU's speed during each run's measurement (results.ts: the server's, the bench's for a database phase). */
  cpuSpeeds: (number | undefined)[];
  median: number;
  /** The secondary figures (p50, p99...) of the run whose figure is the median. */
  medianDetail?: string;
  min: number;
  max: number;
  ratioMedian?: number;
  target?: string;
  /** Runs that met, missed, and were not judged (load). */
  met: number;
  missed: number;
  unjudged: number;
  verdict: 'met' | 'missed' | 'not judged' | '';
}

/** Rows of each run matched by group, name and occurrence (a measurement may repeat within a run). */
export function summarizeRuns(runs: ResultRow[][]): RunsRow[] {
  const byKey = new Map<string, ResultRow[]>();
  for (const rows of runs) {
    const seen = new Map<string, number>();
    for (const row of rows) {
      const base = `${row.group}\u0000${row.name}`;
      const k = (seen.get(base) ?? 0) + 1;
      seen.set(base, k);
      const key = `${base}\u0000${k}`;
      byKey.set(key, [...(byKey.get(key) ?? []), row]);
    }
  }
  const majority = Math.floor(runs.length / 2) + 1;
  return [...byKey.values()].map((rows) => {
    const values = rows.map((r) => r.value);
    const mid = median(values);
    const ratios = rows.map((r) => r.ratio).filter((r): r is number => r !== undefined);
    const met = rows.filter((r) => r.met === true).length;
    const missed = rows.filter((r) => r.met === false).length;
    const target = rows.find((r) => r.target)?.target;
    const verdict = !target ? '' : met >= majority ? 'met' : missed >= majority ? 'missed' : 'not judged';
    return {
      group: rows[0].group,
      name: rows[0].name,
      unit: rows[0].unit,
      values,
      cpuSpeeds: rows.map((r) => r.cpuSpeed),
      median: mid,
      medianDetail: rows.find((r) => r.value === mid)?.detail,
      min: Math.min(...values),
      max: Math.max(...values),
      ratioMedian: ratios.length ? median(ratios) : undefined,
      target,
      met,
      missed,
      unjudged: rows.length - met - missed,
      verdict,
    };
  });
}

const fmt = (n: number) => (Math.abs(n) >= 100 ? Math.round(n).toLocaleString('en-US') : String(Math.round(n * 100) / 100));

/** The summary as a markdown table (pasted into docs/performance.md as is). */
export function markdownRuns(rows: RunsRow[], runs: number): string {
  const lines = [
    `| Group | Measurement | Median of ${runs} runs | Spread (lowest - highest) | Ratio (median) | CPU speed by run | Target | Runs met / missed / not judged | Verdict |`,
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const r of rows) {
    const verdict = r.verdict === 'missed' ? '**missed**' : r.verdict;
    const speeds = r.cpuSpeeds.some((v) => v !== undefined) ? r.cpuSpeeds.map((v) => (v === undefined ? '-' : `${v}x`)).join(', ') : '';
    lines.push(
      `| ${r.group} | ${r.name} | ${fmt(r.median)} ${r.unit}${r.medianDetail ? ` (${r.medianDetail})` : ''} | ${fmt(r.min)} - ${fmt(r.max)} | ${r.ratioMedian !== undefined ? `${fmt(r.ratioMedian)}x` : ''} | ${speeds} | ${r.target ?? ''} | ${r.target ? `${r.met} / ${r.missed} / ${r.unjudged}` : ''} | ${verdict} |`,
    );
  }
  return lines.join('\n');
}
