import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { hasTaskset } from './cpu.ts';
import { median } from './stats.ts';

/**
 * How fast the server's CPU runs while a figure is measured, against the fastest this machine has
 * been seen to run it. On this virtual machine the host sometimes runs a core at about half its
 * speed for a minute or more: the same fixed computation took 0.5 s and then 1.0 s of CPU time on an
 * idle machine, and every ingestion figure of a run fell to about two thirds with the same share of
 * CPU in every part of the server (perf). The load average cannot see it (nothing else runs), so the
 * probe measures the core itself (cpu-speed-probe.mjs: fixed work every 200 ms, timed by its own CPU
 * time) and results.ts leaves a figure measured on a slow core unjudged, as it does one measured on
 * a busy machine (docs/performance.md "CPU speed guard", "How much the machine moves the figures").
 */
export interface SpeedReading {
  /** bestMicros / medianMicros: 1 is the machine's best, 0.5 a core running at half speed. */
  speed: number;
  medianMicros: number;
  bestMicros: number;
}

/** At least this many samples (1 s) make a reading: a shorter window reads the last second's. */
const MIN_SAMPLES = 5;
/** Samples of the start-up calibration (the server is not running yet: the core is idle). */
const CALIBRATION_SAMPLES = 15;
/** Bump when the probe's work changes: a best of other work is not comparable. */
const PROBE_VERSION = 1;

interface Sample {
  at: number;
  micros: number;
}

/** The fastest window seen on this machine, kept across runs (a run that starts on a slow core still compares with the machine's best). */
const bestFile = (cpu: number | undefined) => path.join(tmpdir(), `vigil-bench-cpu-speed-${cpu ?? 'any'}.json`);

function storedBest(cpu: number | undefined): number | undefined {
  const file = bestFile(cpu);
  if (!existsSync(file)) return undefined;
  try {
    const kept = JSON.parse(readFileSync(file, 'utf8')) as { probe?: number; bestMicros?: number };
    return kept.probe === PROBE_VERSION && typeof kept.bestMicros === 'number' && kept.bestMicros > 0 ? kept.bestMicros : undefined;
  } catch {
    return undefined;
  }
}

export class CpuSpeedProbe {
  private readonly samples: Sample[] = [];
  private best: number | undefined;
  private waiting: (() => void) | undefined;

  private constructor(
    private readonly child: ChildProcess,
    private readonly cpu: number | undefined,
    /** Whose CPU, as printed: "the server's CPU". */
    readonly label: string,
  ) {
    this.best = storedBest(cpu);
    let partial = '';
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        const [at, micros] = line.split(' ').map(Number);
        if (Number.isFinite(at) && micros > 0) this.samples.push({ at, micros });
      }
      if (this.waiting && this.samples.length >= CALIBRATION_SAMPLES) this.waiting();
    });
  }

  /** Starts the probe on `cpu` (unpinned without one) and waits for its calibration on the idle core. */
  static async start(cpu: number | undefined, label: string): Promise<CpuSpeedProbe> {
    const script = fileURLToPath(new URL('./cpu-speed-probe.mjs', import.meta.url));
    const [cmd, ...args] =
      cpu !== undefined && hasTaskset() ? ['taskset', '-c', String(cpu), process.execPath, script] : [process.execPath, script];
    const child = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'inherit'] });
    const probe = new CpuSpeedProbe(child, cpu, label);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 10_000);
      probe.waiting = () => {
        clearTimeout(timer);
        probe.waiting = undefined;
        resolve();
      };
    });
    const calibration = probe.readingSince(0);
    if (calibration)
      console.log(
        `CPU speed probe on ${label}: ${calibration.medianMicros} us per sample idle, this machine's best ${calibration.bestMicros} us`,
      );
    return probe;
  }

  /** A mark for readingSince: now. */
  mark(): number {
    return Date.now();
  }

  /**
   * The core's speed since `mark` (or over the last second, for a shorter window; undefined before the
   * probe has sampled a second), against the best window seen; a faster window becomes the best.
   */
  readingSince(mark: number): SpeedReading | undefined {
    let window = this.samples.filter((s) => s.at >= mark).map((s) => s.micros);
    if (window.length < MIN_SAMPLES) window = this.samples.slice(-MIN_SAMPLES).map((s) => s.micros);
    if (window.length < MIN_SAMPLES) return undefined;
    const medianMicros = Math.round(median(window));
    if (this.best === undefined || medianMicros < this.best) {
      this.best = medianMicros;
      writeFileSync(bestFile(this.cpu), JSON.stringify({ probe: PROBE_VERSION, bestMicros: medianMicros, at: new Date().toISOString() }));
    }
    return { speed: Math.round((this.best / medianMicros) * 100) / 100, medianMicros, bestMicros: this.best };
  }

  stop(): void {
    this.child.stdin?.end();
    this.child.kill();
  }
}
