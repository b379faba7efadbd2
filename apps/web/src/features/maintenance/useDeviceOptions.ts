import { useMemo, useState } from 'react';
import { useDebouncedValue } from '../../lib/search.ts';
import { usePortalDeviceOptionsQuery } from './api.ts';

/**
 * The device picker's options (docs/web-pages.md "Maintenance windows"): the portal's devices by name, one
 * page of the largest size the list allows. A portal with more devices than that page is searched on
 * the server as the user types (the devices list's `q`), so any of its devices can be chosen; a
 * device chosen from a search keeps its name whatever a later search shows.
 */
export function useDeviceOptions(customerId: number, open: boolean, chosen: number[] | undefined) {
  const first = usePortalDeviceOptionsQuery({ customerId }, { skip: !open });
  const [typed, setTyped] = useState('');
  const q = useDebouncedValue(typed.trim());
  const partial = (first.data?.data.count ?? 0) > (first.data?.data.list.length ?? 0);
  const found = usePortalDeviceOptionsQuery({ customerId, q }, { skip: !open || !partial || q === '' });
  // Names of devices chosen from a search: the options of a later search may not hold them.
  const [picked, setPicked] = useState<ReadonlyMap<number, string>>(new Map());
  const options = useMemo(() => {
    const shown = partial && q !== '' ? (found.data?.data.list ?? []) : (first.data?.data.list ?? []);
    const names = new Map([...picked, ...(first.data?.data.list ?? []).map((d) => [d.id, d.name] as const)]);
    const ids = new Set(shown.map((d) => d.id));
    const kept = (chosen ?? []).filter((id) => !ids.has(id) && names.has(id));
    return [...shown.map((d) => ({ value: d.id, label: d.name })), ...kept.map((id) => ({ value: id, label: names.get(id)! }))];
  }, [first.data, found.data, partial, q, chosen, picked]);
  return {
    options,
    /** The first page holds only some of the portal's devices: the search goes to the server. */
    partial,
    loading: first.isLoading || found.isFetching,
    onSearch: setTyped,
    /** Remembers a chosen option's name and ends the search (the Select clears its input then without telling onSearch). */
    onSelect: (id: number, option: { label: string }) => {
      setPicked((m) => new Map(m).set(id, option.label));
      setTyped('');
    },
  };
}
