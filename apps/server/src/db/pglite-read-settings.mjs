// A read's commands as settings of PGlite's one session (pglite-worker.mjs runAlone): plain JavaScript,
// as the worker. docs/performance-choices.md "A read's settings kept on the session".

/** One command of a read's prelude: `set local NAME = VALUE` (or `to`), or `set local role NAME`. */
const SET_LOCAL = /^set local (role) ([a-z_][a-z0-9_]*)$|^set local ([a-z_][a-z0-9_.]*) (?:=|to) ('(?:[^']|'')*'|[a-z0-9_]+)$/i;

/**
 * What makes every statement alone in the session read-only, as BEGIN READ ONLY makes a transaction:
 * each statement sent outside a transaction is a transaction of its own, read-only by this default.
 */
const READ_ONLY = 'default_transaction_read_only';

/** Forms already worked out, by prelude: a handful in practice (one per tenant and plan mode). */
const forms = new Map();
const MAX_FORMS = 1_000;

/**
 * A read's prelude (`set local ...` commands joined by `; `, from scope.ts and prepared.ts) as
 * session settings: `set`, the commands that put it in force for the whole session (read-only
 * included), and `reset`, those that put the session back to its defaults. Undefined when a command
 * is not a plain `set local` of one name (it would not be undone by `reset`): such a read keeps its
 * own transaction.
 */
export function sessionFormOf(prelude) {
  const key = prelude ?? '';
  let form = forms.get(key);
  if (form !== undefined) return form ?? undefined;
  const set = [`set ${READ_ONLY} = on`];
  const reset = [`reset ${READ_ONLY}`];
  for (const command of key ? key.split('; ') : []) {
    const match = SET_LOCAL.exec(command.trim());
    if (!match) {
      form = null;
      break;
    }
    const name = match[1] ?? match[3];
    set.push(match[1] ? `set role ${match[2]}` : `set ${name} = ${match[4]}`);
    reset.push(`reset ${name}`);
  }
  form ??= { set: set.join('; '), reset: reset.join('; ') };
  if (forms.size >= MAX_FORMS) forms.clear();
  forms.set(key, form);
  return form ?? undefined;
}
