import { ConfigProvider, notification, theme } from 'antd';
import type { ReactNode } from 'react';
import { useEffect } from 'react';
import { Provider } from 'react-redux';
import { RouterProvider } from 'react-router';
import { PersistGate } from 'redux-persist/integration/react';
import { setNotifier } from '../lib/notify.ts';
import { useAppSelector } from './hooks.ts';
import { router } from './router.tsx';
import { persistor, store } from './store.ts';
import { themeOf } from './theme.ts';

/**
 * Hands a themed notification instance to code outside React. (antd's <App> would do this
 * too, but it also brings the modal and message hooks: about 8 KB gzip on every route.)
 */
function NotifierBridge() {
  const [api, holder] = notification.useNotification({ placement: 'topRight' });
  useEffect(() => setNotifier(api), [api]);
  return holder;
}

/** What antd's <App> styles on its wrapper: text colour and font from the theme tokens. */
function TextBase({ children }: { children: ReactNode }) {
  const { token } = theme.useToken();
  return <div style={{ color: token.colorText, fontSize: token.fontSize, lineHeight: token.lineHeight, fontFamily: token.fontFamily }}>{children}</div>;
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
        <NotifierBridge />
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
