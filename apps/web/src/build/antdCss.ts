/**
 * antd's prebuilt stylesheet (antd/dist/antd.css, ~1 MB) styles every antd component; the app uses about
 * half of them. The build drops the rules of components whose code is in no chunk of the app: a rule goes
 * when every selector of it names a class of such a component (`.ant-cascader`, `.ant-cascader-menu`, ...).
 * What stays keeps its order. A component is "in the app" when any module of its folder (antd/es/<folder>/)
 * is bundled, so a newly used component brings its styles back by itself.
 */

/** Class prefix (after `.ant-`) -> the antd/es folders whose code renders those classes. */
export const COMPONENT_CLASSES: Record<string, string[]> = {
  affix: ['affix'],
  anchor: ['anchor'],
  carousel: ['carousel'],
  cascader: ['cascader'],
  'color-picker': ['color-picker'],
  'float-btn': ['float-button'],
  image: ['image'],
  masonry: ['masonry'],
  mentions: ['mentions'],
  message: ['message'],
  qrcode: ['qr-code'],
  rate: ['rate'],
  segmented: ['segmented'],
  slider: ['slider'],
  splitter: ['splitter'],
  timeline: ['timeline'],
  tour: ['tour'],
  transfer: ['transfer'],
  'tree-select': ['tree-select'],
  'select-tree': ['tree-select'],
  upload: ['upload'],
  'picker-calendar': ['calendar'],
};

/** The class prefixes whose components are not bundled, given the bundled module ids. */
export function unusedPrefixes(moduleIds: Iterable<string>): string[] {
  const folders = new Set<string>();
  for (const id of moduleIds) {
    const m = /[\\/]node_modules[\\/]antd[\\/](?:es|lib)[\\/]([^\\/]+)[\\/]/.exec(id);
    if (m) folders.add(m[1]);
  }
  return Object.entries(COMPONENT_CLASSES)
    .filter(([, owners]) => !owners.some((f) => folders.has(f)))
    .map(([prefix]) => prefix);
}

/** Splits at top-level commas (not inside parentheses or quotes). */
function splitSelectors(list: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote = '';
  let start = 0;
  for (let i = 0; i < list.length; i++) {
    const c = list[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (c === ',' && depth === 0) {
      out.push(list.slice(start, i));
      start = i + 1;
    }
  }
  out.push(list.slice(start));
  return out;
}

/**
 * Calls `visit` with each character of `css` in [from, to) that is outside strings and comments, in
 * order; the first answer other than undefined ends the scan and is returned.
 */
function scanCode<T>(css: string, from: number, to: number, visit: (c: string, index: number) => T | undefined): T | undefined {
  let quote = '';
  for (let j = from; j < to; j++) {
    const c = css[j];
    if (quote) {
      if (c === '\\') j++;
      else if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '/' && css[j + 1] === '*') {
      const end = css.indexOf('*/', j + 2);
      j = end === -1 ? to : end + 1;
    } else {
      const answer = visit(c, j);
      if (answer !== undefined) return answer;
    }
  }
  return undefined;
}

/** Removes the rules whose every selector names an unused component's class (see filterSelectors). */
export function dropComponentRules(css: string, prefixes: string[]): string {
  if (!prefixes.length) return css;
  const unused = new RegExp(`\\.ant-(?:${prefixes.map((p) => p.replace(/[-]/g, '\\-')).join('|')})(?![a-zA-Z0-9_])`);
  // Class names only: text inside quotes ([title=".ant-x"]) is not a class.
  return filterSelectors(css, (selector) => !unused.test(unquoted(selector)));
}

const unquoted = (selector: string) => selector.replace(/"[^"]*"|'[^']*'/g, '""');

/**
 * Keeps only the selectors all of whose antd classes (`.ant-<name>`) belong to the given class prefixes
 * (`btn` owns `.ant-btn` and `.ant-btn-primary`), except those of `notPrefixes` (`input-number` is not
 * `input`'s); selectors naming no antd class (`.anticon`, `a`, keyframes) stay. Order kept.
 */
export function keepComponentRules(css: string, prefixes: string[], notPrefixes: string[] = []): string {
  const owned = (name: string, list: string[]) => list.some((p) => name === p || name.startsWith(`${p}-`));
  return filterSelectors(css, (selector) =>
    [...unquoted(selector).matchAll(/\.ant-([a-zA-Z0-9_-]+)/g)].every(([, name]) => owned(name, prefixes) && !owned(name, notPrefixes)),
  );
}

/**
 * Removes from each rule (also inside @media/@supports/@layer/@container) the selectors `keep` refuses, and
 * the rules left without one; keeps everything else byte for byte. Scans braces outside strings and comments.
 */
function filterSelectors(css: string, keep: (selector: string) => boolean): string {
  const dead = (selector: string) => !keep(selector);
  /** The index of the brace closing the block opened at `open`. */
  const blockEnd = (open: number): number => {
    let depth = 0;
    const end = scanCode(css, open, css.length, (c, j) => {
      if (c === '{') depth++;
      else if (c === '}' && --depth === 0) return j;
      return undefined;
    });
    if (end === undefined) throw new Error('antd css: unbalanced braces');
    return end;
  };
  const walk = (from: number, to: number): string => {
    let acc = '';
    let k = from;
    while (k < to) {
      // Comments and whitespace between rules pass through. A statement at-rule's `;` answers -index - 1.
      const open =
        scanCode(css, k, to, (c, j) => (c === '{' ? j : c === ';' && css.slice(k, j).trimStart().startsWith('@') ? -j - 1 : undefined)) ??
        -1;
      if (open === -1) {
        acc += css.slice(k, to);
        break;
      }
      if (open < -1) {
        // A statement at-rule (@import, @charset, @layer a, b;).
        const end = -open - 1;
        acc += css.slice(k, end + 1);
        k = end + 1;
        continue;
      }
      const close = blockEnd(open);
      const prelude = css.slice(k, open);
      const head = prelude.trim();
      if (/^@(media|supports|layer|container)\b/.test(head)) {
        const inner = walk(open + 1, close);
        if (inner.trim()) acc += `${prelude}{${inner}}`;
      } else if (head.startsWith('@')) {
        acc += css.slice(k, close + 1); // @keyframes, @font-face, ...: kept whole
      } else {
        const kept = splitSelectors(prelude).filter((s) => !dead(s));
        if (kept.length === splitSelectors(prelude).length) acc += css.slice(k, close + 1);
        else if (kept.length) acc += `${kept.join(',')}${css.slice(open, close + 1)}`;
      }
      k = close + 1;
    }
    return acc;
  };
  return walk(0, css.length);
}

/**
 * Removes the rules scoped to a server-rendered theme (`.css-var-_R_0_`, `.css-var-_R_29n_.ant-btn`):
 * antd's sheet was extracted from a server render, whose React ids are `_R_..._`; in the browser they
 * are `_r_..._` (the app renders on the client only), so those rules (default-theme CSS variables)
 * never match. The app's variables come from its theme at run time.
 */
export function dropServerScopes(css: string): string {
  return filterSelectors(css, (selector) => !/\.css-var-_R_/.test(selector));
}

/** The antd/es folders of bundled modules (a component's `locale` files render nothing: left out). */
function antdFolders(moduleIds: Iterable<string>): Set<string> {
  const folders = new Set<string>();
  for (const id of moduleIds) {
    const m = /[\\/]node_modules[\\/]antd[\\/](?:es|lib)[\\/]([^\\/]+)[\\/](?!locale)/.exec(id);
    if (m) folders.add(m[1]);
  }
  return folders;
}

/**
 * The stylesheet of the first screens (sign-in and the other auth pages): `antd/dist/antd.css?first`
 * holds only the rules of the components those screens render; the other routes' layouts import the whole
 * `antd/dist/antd.css`, which loads with their chunks.
 */
export interface FirstSheet {
  /** antd/es folder -> the class prefixes its components render (`button` -> `btn`); [] for none. */
  styles: Record<string, string[]>;
  /** Class prefixes that look like a listed one's but belong to another component (`input-number`). */
  notPrefixes: string[];
  /** The modules whose chunks (with their static imports) load with the first screens. */
  chunks: RegExp;
}

/**
 * Vite plugin: antd's stylesheet without the rules of the components listed as unused (class prefixes of
 * COMPONENT_CLASSES). Trimmed when the stylesheet is loaded, so the CSS file's hash follows its content; the
 * build fails if a component listed as unused is bundled after all (its styles would be missing).
 * With `first`: `antd.css?first` is the first screens' sheet (see FirstSheet); the build fails if their
 * chunks bundle an antd component whose styles it does not list.
 */
export function antdCssTrim(unused: string[], first?: FirstSheet) {
  for (const p of unused) if (!COMPONENT_CLASSES[p]) throw new Error(`antd css: unknown component class prefix ${p}`);
  const firstPrefixes = first ? [...new Set(Object.values(first.styles).flat())] : [];
  return {
    name: 'vigil-antd-css-trim',
    apply: 'build' as const,
    transform(code: string, id: string) {
      const [file, query = ''] = id.split('?');
      if (!/[\\/]antd[\\/]dist[\\/]antd\.css$/.test(file)) return null;
      const css = dropServerScopes(dropComponentRules(code, unused));
      if (first && new URLSearchParams(query).has('first'))
        return { code: keepComponentRules(css, firstPrefixes, first.notPrefixes), map: null };
      return { code: css, map: null };
    },
    generateBundle(
      this: { error(msg: string): never },
      _options: unknown,
      bundle: Record<string, { type: string; fileName: string; facadeModuleId?: string | null; imports?: string[]; moduleIds?: string[] }>,
    ) {
      const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
      const ids = chunks.flatMap((c) => c.moduleIds ?? []);
      const stillUnused = new Set(unusedPrefixes(ids));
      const missing = unused.filter((p) => !stillUnused.has(p));
      if (missing.length) this.error(`antd css: ${missing.join(', ')} now bundled: take them off the unused list in vite.config.ts`);
      if (!first) return;
      const byName = new Map(chunks.map((c) => [c.fileName, c]));
      const seen = new Set<string>();
      const stack = chunks.filter((c) => c.facadeModuleId && first.chunks.test(c.facadeModuleId)).map((c) => c.fileName);
      while (stack.length) {
        const f = stack.pop()!;
        if (seen.has(f)) continue;
        seen.add(f);
        stack.push(...(byName.get(f)?.imports ?? []));
      }
      const unstyled = [...antdFolders([...seen].flatMap((f) => byName.get(f)?.moduleIds ?? []))].filter((f) => !(f in first.styles));
      if (unstyled.length)
        this.error(`antd css: the first screens bundle ${unstyled.join(', ')}: list their class prefixes in vite.config.ts (first sheet)`);
    },
  };
}
