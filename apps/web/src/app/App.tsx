import { ConfigProvider, theme } from 'antd';
import type { ReactNode } from 'react';
import { lazy, Suspense, useEffect } from 'react';
import { Provider } from 'react-redux';
import { RouterProvider } from 'react-router';
import { PersistGate } from 'redux-persist/integration/react';
import { useAppSelector } from '../lib/state/hooks.ts';
import { router } from './router.tsx';
import { persistor, store } from './store.ts';
import { themeOf } from '../lib/theme.ts';

/** Toasts: their code loads right after the first render (see lib/notify.ts). */
const NotificationHost = lazy(() => import('./NotificationHost.tsx'));

/** What antd's <App> styles on its wrapper: text colour and font from the theme tokens. */
function TextBase({ children }: { children: ReactNode }) {
  const { token } = theme.useToken();
  return (
    <div style={{ color: token.colorText, fontSize: token.fontSize, lineHeight: token.lineHeight, fontFamily: token.fontFamily }}>
      {children}
    </div>
  );
}

function ThemedApp() {
  const mode = useAppSelector((s) => s.theme.mode);
  useEffect(() => {
    document.documentElement.dataset.theme = mode;
    document.documentElement.style.colorScheme = mode;
  }, [mode]);
  return (
    <ConfigProvider theme={themeOf(mode)}>
      <TextBase>
        <Suspense fallback={null}>
          <NotificationHost />
        </Suspense>
        <RouterProvider router={router} />
      </TextBase>
    </ConfigProvider>
  );
}

export function App() {
  return (
    <Provider store={store}>
      <PersistGate loading={null} persistor={persistor}>
        <ThemedApp />
      </PersistGate>
    </Provider>
  );
}
