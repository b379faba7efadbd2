import { readFileSync } from 'node:fs';
const p = JSON.parse(readFileSync(process.argv[2]!, 'utf8'));
const byId = new Map<number, any>(p.nodes.map((n: any) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const cat = (id: number) => {
  let cur: number | undefined = id; const fns: string[] = [];
  while (cur !== undefined) { const cf = byId.get(cur).callFrame; fns.push(cf.functionName + '@' + cf.url); cur = parent.get(cur); }
  const self = fns[0]!;
  if (self.startsWith('(idle)')) return 'idle';
  if (fns.some((f) => f.includes('applyOfflineAlertRules') || f.includes('offline-alert'))) return 'alerts';
  if (fns.some((f) => f.includes('maintainPglite'))) return 'maint';
  if (self.includes('wasm')) return 'wasm';
  if (self.includes('pglite')) return 'pgliteJS';
  if (self.startsWith('(garbage')) return 'gc';
  return 'other';
};
let t = 0; const buckets = new Map<number, Record<string, number>>();
for (let i = 0; i < p.samples.length; i++) {
  t += p.timeDeltas[i]; const b = Math.floor(t / 1e6);
  const rec = buckets.get(b) ?? {}; const c = cat(p.samples[i]); rec[c] = (rec[c] ?? 0) + p.timeDeltas[i] / 1000; buckets.set(b, rec);
}
for (const [b, rec] of buckets) console.log(String(b).padStart(4), Object.entries(rec).sort().map(([k, v]) => `${k} ${v.toFixed(0)}`).join('  '));
