import { summarizeProfiles } from './src/lib/profile.ts';
const s = summarizeProfiles(process.argv[2]!);
console.log(s.categories); console.log(s.hot.slice(0, 25).map((h) => `${h.share}% ${h.frame}`).join('\n'));
