import { useEffect } from 'react';
import { Outlet, useLocation, useMatches, useNavigation } from 'react-router';
import { PRODUCT_NAME } from '@vigil/contracts';
import { isRouteHandle } from '../lib/routeHandle.ts';

/** Top progress bar while a navigation (or a lazy route) is loading. */
export function TopProgress() {
  const navigation = useNavigation();
  if (navigation.state === 'idle') return null;
  return <div className="vigil-progress" role="progressbar" aria-label="Loading page" />;
}

/** Every page: document title "<page> · Vigil", scroll to top on path change, progress bar. */
export function RootLayout() {
  const { pathname } = useLocation();
  const matches = useMatches();
  const handle = [...matches]
    .reverse()
    .map((m) => m.handle)
    .find(isRouteHandle);
  const title = handle?.title;

  useEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);
  useEffect(() => {
    document.title = title ? `${title} · ${PRODUCT_NAME}` : PRODUCT_NAME;
  }, [title, pathname]);

  return (
    <>
      <TopProgress />
      <Outlet />
    </>
  );
}
