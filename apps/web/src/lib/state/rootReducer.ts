import { combineReducers, type ThunkDispatch, type UnknownAction } from '@reduxjs/toolkit';
import { api } from '../api/apiSlice.ts';
import { authReducer } from '../session/authSlice.ts';
import { sessionReducer } from '../session/sessionSlice.ts';
import { pageInfoReducer, themeReducer } from './uiSlices.ts';

/**
 * The app's state, slice by slice. It lives here, not in `app/store.ts`, so that the
 * typed hooks (./hooks.ts) can name the state without importing the concrete store:
 * `app/store.ts` only wraps it (persistence, middleware).
 */
export const rootReducer = combineReducers({
  auth: authReducer,
  theme: themeReducer,
  pageInfo: pageInfoReducer,
  session: sessionReducer,
  [api.reducerPath]: api.reducer,
});

export type RootState = ReturnType<typeof rootReducer>;
/** The store's dispatch: plain actions and thunks (RTK Query's among them). `app/store.ts` checks its store matches. */
export type AppDispatch = ThunkDispatch<RootState, undefined, UnknownAction>;
