import { SearchOutlined } from '@ant-design/icons';
import { AutoComplete, Input } from 'antd';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { highlightParts, searchTermOf, useDebouncedValue } from '../../../lib/search.ts';
import { useSearchCustomersQuery } from '../api.ts';

export const UNKNOWN_CUSTOMER = 'Unknown Customer';

export function Highlighted({ label, query }: { label: string; query: string }) {
  return (
    <span>
      {highlightParts(label, query).map((part, i) =>
        part.match ? (
          <mark key={i} className="vigil-highlight">
            {part.text}
          </mark>
        ) : (
          <span key={i}>{part.text}</span>
        ),
      )}
    </span>
  );
}

/**
 * Customer search that opens the picked customer's portal: the header's, and the Search page's (docs/web.md "Shell", docs/product.md "Validation"): queries at 2+ characters after 200 ms of
 * quiet; shorter text clears the results; a failure is logged and empties them.
 */
export function PortalSearch({ autoFocus = false, wide = false }: { autoFocus?: boolean; wide?: boolean } = {}) {
  const navigate = useNavigate();
  const [text, setText] = useState('');
  const term = searchTermOf(useDebouncedValue(text));
  const { data, error, isFetching } = useSearchCustomersQuery(term, { skip: !term });
  useEffect(() => {
    if (error) console.warn('customer search failed', error);
  }, [error]);
  const results = term && !error ? (data ?? []) : [];

  return (
    <AutoComplete
      value={text}
      onChange={setText}
      style={{ width: wide ? '100%' : 'min(360px, 32vw)' }}
      // A search that matched nothing says so (an empty dropdown looked like a broken box).
      notFoundContent={term && !isFetching && data ? `No customer matches “${term}”.` : null}
      options={results.map((c) => {
        const label = c.name || UNKNOWN_CUSTOMER;
        return { value: String(c.id), key: c.id, label: <Highlighted label={label} query={term} />, customerName: label };
      })}
      onSelect={(value: string, option) => {
        setText('');
        void navigate(`/dashboards/portals/${value}`, { state: { customerName: (option as { customerName: string }).customerName } });
      }}
    >
      <Input
        prefix={<SearchOutlined />}
        placeholder="Search for something"
        aria-label="Search customers"
        allowClear
        size="large"
        autoFocus={autoFocus}
      />
    </AutoComplete>
  );
}
