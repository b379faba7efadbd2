import { readFileSync } from 'node:fs';
const p = JSON.parse(readFileSync(process.argv[2]!, 'utf8'));
const byId = new Map<number, any>(p.nodes.map((n: any) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const self = new Map<string, number>(); let busy = 0;
for (let i = 0; i < p.samples.length; i++) {
  const n = byId.get(p.samples[i]); const cf = n.callFrame;
  if (cf.functionName === '(idle)') continue;
  busy += p.timeDeltas[i];
  if (cf.url.includes('pglite') || cf.url.startsWith('wasm')) continue;
  // attribute native frames to their first JS parent
  let key = (cf.functionName || '(anon)') + ' ' + cf.url.split('/').slice(-2).join('/');
  if (!cf.url) { let cur = parent.get(n.id); while (cur !== undefined && !byId.get(cur).callFrame.url) cur = parent.get(cur); if (cur !== undefined) { const pc = byId.get(cur).callFrame; key += ' <- ' + pc.functionName + ' ' + pc.url.split('/').slice(-2).join('/') + ':' + pc.lineNumber; } }
  self.set(key, (self.get(key) ?? 0) + p.timeDeltas[i]);
}
for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 45)) console.log((100 * v / busy).toFixed(1).padStart(5) + '% ' + k);
