import { createSlice } from '@reduxjs/toolkit';
import { tokensReceived } from './authSlice.ts';

/**
 * A deliberate logout in progress: the session guard then stays quiet instead of
 * redirecting to sign-in, so logout lands on the root (docs/web.md "Session"). Not persisted.
 */
const sessionSlice = createSlice({
  name: 'session',
  initialState: { signingOut: false },
  reducers: {
    signOutStarted(state) {
      state.signingOut = true;
    },
  },
  extraReducers: (builder) => {
    builder.addCase(tokensReceived, (state) => {
      state.signingOut = false;
    });
  },
});
export const { signOutStarted } = sessionSlice.actions;
export const sessionReducer = sessionSlice.reducer;
