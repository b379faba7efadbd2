/**
 * antd's components each carry the code that writes their CSS in the browser (CSS-in-JS: the style
 * functions of `antd/es/<component>/style/`). The app never runs it: the theme is in zero-runtime mode
 * and the styles come from antd's prebuilt stylesheet (lib/theme.ts, main.tsx), so a component's style
 * hook returns before calling its style function. Those functions are still bundled, because each is
 * passed to `genStyleHooks`/`genSubStyleComponent`/`genComponentStyleHook`, which keep a reference.
 * The build passes an empty style function instead (`() => []`: no rules, also for a component rendered
 * outside the app's ConfigProvider, whose styles the prebuilt sheet has anyway), so the style functions
 * and what only they use (style helpers, motion keyframes builders) drop out of the chunks.
 */

/** The hook builders whose second argument is a style function. */
const BUILDERS = new Set(['genStyleHooks', 'genSubStyleComponent', 'genComponentStyleHook']);
export const EMPTY_STYLE_FN = '() => []';

interface Node {
  type: string;
  start: number;
  end: number;
  [key: string]: unknown;
}

function isNode(v: unknown): v is Node {
  return typeof v === 'object' && v !== null && typeof (v as Node).type === 'string';
}

/** The [start, end) ranges of the style-function arguments in a parsed module, last first. */
export function styleFnRanges(program: Node): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const visit = (n: Node) => {
    if (n.type === 'CallExpression') {
      const callee = n.callee as Node;
      const args = n.arguments as Node[];
      if (callee.type === 'Identifier' && BUILDERS.has(callee.name as string) && args.length >= 2) {
        out.push([args[1].start, args[1].end]);
      }
    }
    for (const v of Object.values(n)) {
      if (Array.isArray(v)) v.forEach((c) => isNode(c) && visit(c));
      else if (isNode(v)) visit(v);
    }
  };
  visit(program);
  return out.sort((a, b) => b[0] - a[0]);
}

/** Replaces each style-function argument with the empty style function. */
export function emptyStyleFns(code: string, program: Node): string {
  let s = code;
  for (const [start, end] of styleFnRanges(program)) s = s.slice(0, start) + EMPTY_STYLE_FN + s.slice(end);
  return s;
}

/** Vite plugin (build only): applies emptyStyleFns to antd's style modules. */
export function antdStyleFns() {
  return {
    name: 'vigil-antd-style-fns',
    apply: 'build' as const,
    transform(this: { parse(code: string): unknown }, code: string, id: string) {
      if (!/[\\/]node_modules[\\/]antd[\\/]es[\\/](?:.+[\\/])?style[\\/][^\\/]+\.js$/.test(id.split('?')[0])) return null;
      if (!/\bgen(?:StyleHooks|SubStyleComponent|ComponentStyleHook)\(/.test(code)) return null;
      return { code: emptyStyleFns(code, this.parse(code) as Node), map: null };
    },
  };
}
