import { readFileSync, readdirSync } from 'node:fs';
const dir = process.argv[2]!;
const names = process.argv.slice(3);
for (const f of readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'))) {
  const p = JSON.parse(readFileSync(`${dir}/${f}`, 'utf8'));
  const byId = new Map<number, any>(p.nodes.map((n: any) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const counts = new Map<number, number>();
  for (const s of p.samples) counts.set(s, (counts.get(s) ?? 0) + 1);
  const total = p.samples.length;
  const idle = [...counts].filter(([id]) => byId.get(id).callFrame.functionName === '(idle)').reduce((a, [, c]) => a + c, 0);
  const incl = new Map<string, number>();
  for (const [id, c] of counts) {
    const seen = new Set<string>();
    let cur: number | undefined = id;
    while (cur !== undefined) {
      const fn = byId.get(cur).callFrame.functionName || '(anon)';
      const key = fn + ' ' + (byId.get(cur).callFrame.url.split('/').slice(-2).join('/'));
      if (!seen.has(key)) { seen.add(key); incl.set(key, (incl.get(key) ?? 0) + c); }
      cur = parent.get(cur);
    }
  }
  const busy = total - idle;
  console.log(f, 'samples', total, 'idle', idle);
  const rows = [...incl].filter(([k]) => names.length === 0 || names.some((n) => k.startsWith(n + ' '))).sort((a, b) => b[1] - a[1]).slice(0, 60);
  for (const [k, c] of rows) console.log((100 * c / busy).toFixed(1).padStart(6) + '%  ' + k);
}
