import { App as AntApp, ConfigProvider } from 'antd';
import { useEffect } from 'react';
import { Provider } from 'react-redux';
import { RouterProvider } from 'react-router';
import { PersistGate } from 'redux-persist/integration/react';
import { setNotifier } from '../lib/notify.ts';
import { useAppSelector } from './hooks.ts';
import { router } from './router.tsx';
import { persistor, store } from './store.ts';
import { themeOf } from './theme.ts';

/** Hands antd's themed notification instance to code outside React. */
function NotifierBridge() {
  const { notification } = AntApp.useApp();
  useEffect(() => setNotifier(notification), [notification]);
  return null;
}

function ThemedApp() {
  const mode = useAppSelector((s) => s.theme.mode);
  useEffect(() => {
    document.documentElement.dataset.theme = mode;
    document.documentElement.style.colorScheme = mode;
  }, [mode]);
  return (
    <ConfigProvider theme={themeOf(mode)}>
      <AntApp notification={{ placement: 'topRight' }}>
        <NotifierBridge />
        <RouterProvider router={router} />
      </AntApp>
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
