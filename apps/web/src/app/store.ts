import { configureStore } from '@reduxjs/toolkit';
import { setupListeners } from '@reduxjs/toolkit/query';
import { FLUSH, PAUSE, PERSIST, persistReducer, persistStore, PURGE, REGISTER, REHYDRATE } from 'redux-persist';
// Vite 8 trap: the CommonJS default export of 'redux-persist/lib/storage' breaks the build; use the ES one.
import storage from 'redux-persist/es/storage';
import { api } from '../lib/api/apiSlice.ts';
import { rootReducer, type AppDispatch } from '../lib/state/rootReducer.ts';

/** docs/web.md "State and persistence": persisted under a root key, version 1, timeout 5000 ms; auth and theme only. */
export const persistConfig = { key: 'root', version: 1, storage, timeout: 5000, whitelist: ['auth', 'theme'] };

export function makeStore() {
  const store = configureStore({
    reducer: persistReducer(persistConfig, rootReducer),
    middleware: (getDefault) =>
      getDefault({ serializableCheck: { ignoredActions: [FLUSH, REHYDRATE, PAUSE, PERSIST, PURGE, REGISTER] } }).concat(api.middleware),
  });
  setupListeners(store.dispatch);
  return store;
}

export const store = makeStore();
export const persistor = persistStore(store);

// The typed hooks (lib/state/hooks.ts) assume lib's AppDispatch: this store's dispatch must be one.
store.dispatch satisfies AppDispatch;
