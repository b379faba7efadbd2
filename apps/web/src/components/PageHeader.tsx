import { ArrowLeftOutlined, ReloadOutlined } from '@ant-design/icons';
import { Breadcrumb, Button, Flex, Space, Tooltip } from 'antd';
import { useEffect, type ReactNode } from 'react';
import { Link, useMatches, useNavigate } from 'react-router';
import { useAppDispatch } from '../lib/state/hooks.ts';
import { isRouteHandle } from '../lib/routeHandle.ts';
import { pageTitleSet } from '../lib/state/uiSlices.ts';
import { api } from '../lib/api/apiSlice.ts';
import { NARROW_QUERY } from '../lib/theme.ts';
import { useMediaQuery } from '../lib/useMediaQuery.ts';
import { Heading } from './Text.tsx';

export interface PageHeaderProps {
  title: ReactNode;
  /** Plain-text title for the page info state when `title` is not a string. */
  titleText?: string;
  extra?: ReactNode;
  /** Overrides the crumb of the last route (e.g. a customer's name). */
  lastCrumb?: string;
  /** What 'Refresh page' does; default: refetch every query on the page. */
  onRefresh?: () => void;
}

/**
 * Page header (docs/web.md "Shell"): breadcrumbs from the route handles (hidden when
 * narrow), title, extra actions, 'Go back' and 'Refresh page'.
 */
export function PageHeader({ title, titleText, extra, lastCrumb, onRefresh }: PageHeaderProps) {
  const matches = useMatches();
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const narrow = useMediaQuery(NARROW_QUERY);
  const text = titleText ?? (typeof title === 'string' ? title : '');
  useEffect(() => {
    dispatch(pageTitleSet(text));
  }, [dispatch, text]);

  const crumbs = matches.filter((m) => isRouteHandle(m.handle) && m.pathname !== '/');
  const seen = new Set<string>();
  const unique = crumbs.filter((m) => (seen.has(m.pathname.replace(/\/$/, '')) ? false : (seen.add(m.pathname.replace(/\/$/, '')), true)));
  const items = [
    { title: <Link to="/">Home</Link> },
    ...unique.map((m, i) => {
      const label = i === unique.length - 1 && lastCrumb ? lastCrumb : (m.handle as { crumb: string }).crumb;
      return { title: i === unique.length - 1 ? label : <Link to={m.pathname}>{label}</Link> };
    }),
  ];
  const refresh = onRefresh ?? (() => dispatch(api.util.invalidateTags([...TAGS])));

  return (
    <header style={{ marginBottom: 16 }}>
      {!narrow && <Breadcrumb items={items} style={{ marginBottom: 8 }} />}
      <Flex align="center" gap={8} wrap="wrap">
        <Tooltip title="Go back">
          <Button type="text" icon={<ArrowLeftOutlined />} aria-label="Go back" onClick={() => navigate(-1)} />
        </Tooltip>
        <Heading level={narrow ? 4 : 3} style={{ flex: '1 1 auto', minWidth: 0 }}>
          {title}
        </Heading>
        <Space wrap>
          {extra}
          <Tooltip title="Refresh page">
            <Button icon={<ReloadOutlined />} aria-label="Refresh page" onClick={refresh} />
          </Tooltip>
        </Space>
      </Flex>
    </header>
  );
}

const TAGS = ['Me', 'Tenant', 'User', 'Portal', 'Case', 'Alert', 'Report', 'License', 'Device', 'Comment', 'Billing', 'Stats'] as const;
