import { Layout, Spin } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { Outlet, useNavigation } from 'react-router';
import { useMediaQuery } from '../../lib/useMediaQuery.ts';
import { NARROW_QUERY, SIDER_COLLAPSED_WIDTH, SIDER_WIDTH } from '../../lib/theme.ts';
import { GlobalBanner } from './GlobalBanner.tsx';
import { LiveEventsConnector } from '../../features/live/LiveEventsConnector.tsx';
import { NarrowHeader, WideHeader } from './HeaderBar.tsx';
import { SideNav } from './SideNav.tsx';
import { RouteGate } from './RouteGate.tsx';
import { useAuth } from '../../lib/state/hooks.ts';
import { needsTenant } from '../../lib/session/permissions.ts';
// antd's whole stylesheet: the entry loads only the auth pages' part (main.tsx). The rules repeated
// from that part come again in this sheet's order, so the cascade is the whole sheet's.
import 'antd/dist/antd.css';

const NavDrawer = lazy(() => import('./NavDrawer.tsx'));

/**
 * The dashboard shell (docs/web.md "Shell"): side navigation 80/250 px, collapsible and hideable;
 * at 769 px and below a 95vw drawer closed by tapping outside; sticky header.
 */
export default function DashboardLayout() {
  const narrow = useMediaQuery(NARROW_QUERY);
  const [collapsed, setCollapsed] = useState(false);
  const [hidden, setHidden] = useState(false);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const navigation = useNavigation();
  // A user with no tenant yet has no live events to follow (the stream would be refused).
  const firstRun = needsTenant(useAuth());

  return (
    <Layout style={{ minHeight: '100vh' }}>
      {!narrow && !hidden && (
        <Layout.Sider
          width={SIDER_WIDTH}
          collapsedWidth={SIDER_COLLAPSED_WIDTH}
          collapsed={collapsed}
          trigger={null}
          style={{ position: 'sticky', top: 0, height: '100vh', overflow: 'auto' }}
        >
          <SideNav collapsed={collapsed} />
        </Layout.Sider>
      )}
      {narrow && (
        <Suspense fallback={null}>
          <NavDrawer open={drawerOpen} onClose={() => setDrawerOpen(false)} />
        </Suspense>
      )}
      <Layout>
        {narrow ? (
          <NarrowHeader onOpenMenu={() => setDrawerOpen(true)} />
        ) : (
          <WideHeader
            collapsed={collapsed}
            hidden={hidden}
            onToggleCollapsed={() => setCollapsed((c) => !c)}
            onToggleHidden={() => setHidden((h) => !h)}
          />
        )}
        <GlobalBanner />
        {!firstRun && <LiveEventsConnector />}
        <Layout.Content style={{ padding: narrow ? 12 : 24, minWidth: 0 }}>
          <Spin spinning={navigation.state === 'loading'} delay={150} description="Loading">
            <Suspense fallback={<Spin style={{ display: 'block', margin: 48 }} />}>
              <RouteGate>
                <Outlet />
              </RouteGate>
            </Suspense>
          </Spin>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
