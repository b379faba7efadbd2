/** Data set sizes of the benchmark issue. Each tenant's counts are split evenly over its portals. */
export interface TenantSize {
  portals: number;
  devices: number;
  cases: number;
  alerts: number;
}

export interface SizeSpec {
  name: 'tiny' | 'S' | 'S1000' | 'M' | 'L' | 'storm';
  /** The measurements this size runs (all when absent). */
  phases?: string[];
  tenants: TenantSize[];
  /** Days of status history. */
  days: number;
  /** Percent of the devices offline now (2 when absent). */
  offlinePercent?: number;
  /** Length of one online+offline cycle: two status changes per cycle. */
  cycleHours: number;
  /** Seconds per autocannon run (tiny uses a request count instead). */
  duration: number;
  /** Request count per autocannon run, instead of `duration` (tiny smoke runs). */
  amount?: number;
  sseClients: number[];
  /** Caps every run's connections (tiny: the smoke run stays light on a shared CI machine). */
  maxConnections?: number;
  /** Connection counts of the list runs. */
  listConnections: number[];
  /** Sequential samples per Pulse call. */
  samples: number;
  /** Rows of the single-row INSERT baseline. */
  baselineRows: number;
}

const even = (n: number, portals: number, devices: number, cases: number, alerts: number): TenantSize[] =>
  Array.from({ length: n }, () => ({ portals: portals / n, devices: devices / n, cases: cases / n, alerts: alerts / n }));

export const SIZES: Record<SizeSpec['name'], SizeSpec> = {
  tiny: {
    name: 'tiny',
    tenants: even(2, 4, 200, 40, 100),
    days: 8,
    cycleHours: 96,
    duration: 1,
    amount: 20,
    maxConnections: 5,
    sseClients: [20],
    listConnections: [10],
    samples: 3,
    baselineRows: 100,
  },
  // 2 tenants, 100 portals, 10,000 devices, 30 days, 5,000 cases, 20,000 alerts.
  S: {
    name: 'S',
    tenants: even(2, 100, 10_000, 5_000, 20_000),
    days: 30,
    cycleHours: 96,
    duration: 5,
    sseClients: [1_000, 5_000],
    listConnections: [10, 50],
    samples: 30,
    baselineRows: 2_000,
  },
  // The target "Pulse page with 1,000 portals (S on PGlite)": S's volume of devices, history, cases and alerts,
  // the main tenant's spread over 1,000 portals (10 devices each), on the embedded database; Pulse only.
  S1000: {
    name: 'S1000',
    phases: ['dashboard', 'memory'],
    tenants: [
      { portals: 1_000, devices: 10_000, cases: 5_000, alerts: 20_000 },
      { portals: 10, devices: 1_000, cases: 500, alerts: 2_000 },
    ],
    days: 30,
    cycleHours: 96,
    duration: 5,
    sseClients: [],
    listConnections: [],
    samples: 30,
    baselineRows: 100,
  },
  // The embedded database's big size (issue "the embedded database never stops answering for long"): 50,000
  // devices, half of them offline, 90 days of history, on PGlite; the maintenance-under-load phase.
  M: {
    name: 'M',
    phases: ['maintenance'],
    tenants: [
      { portals: 500, devices: 45_000, cases: 5_000, alerts: 20_000 },
      ...Array.from({ length: 5 }, () => ({ portals: 10, devices: 1_000, cases: 100, alerts: 400 })),
    ],
    offlinePercent: 50,
    days: 90,
    cycleHours: 96,
    duration: 5,
    sseClients: [],
    listConnections: [],
    samples: 30,
    baselineRows: 100,
  },
  // 1,000 portals and 100,000 devices in one tenant plus 9 small tenants, 90 days, about one
  // change per device every two days (two changes per 96 h cycle), 50,000 cases, 200,000 alerts.
  L: {
    name: 'L',
    tenants: [
      { portals: 1_000, devices: 100_000, cases: 45_500, alerts: 182_000 },
      ...Array.from({ length: 9 }, () => ({ portals: 10, devices: 500, cases: 500, alerts: 2_000 })),
    ],
    days: 90,
    cycleHours: 96,
    duration: 5,
    sseClients: [1_000, 5_000],
    listConnections: [10, 50],
    samples: 30,
    baselineRows: 1_000,
  },
  // The notifications outage storm (issue 22 item 7) at its own shape and nothing else: one tenant with
  // 100 portals of 10 devices (the storm's 1,000 devices), a small second tenant, 2 days of history.
  storm: {
    name: 'storm',
    phases: ['notifications'],
    tenants: [
      { portals: 100, devices: 1_000, cases: 100, alerts: 400 },
      { portals: 2, devices: 20, cases: 10, alerts: 40 },
    ],
    days: 2,
    cycleHours: 96,
    duration: 5,
    sseClients: [],
    listConnections: [],
    samples: 30,
    baselineRows: 100,
  },
};
