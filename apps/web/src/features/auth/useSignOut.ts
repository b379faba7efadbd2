import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { useAppDispatch } from '../../lib/state/hooks.ts';
import { signOutStarted } from '../../lib/session/sessionSlice.ts';
import { api } from '../../lib/api/apiSlice.ts';
import { useLogoutMutation } from './api.ts';
import { signedOut } from '../../lib/session/authSlice.ts';

/** Logout (docs/web.md "Session"): tell the server, clear auth state and cached data, go to the root. */
export function useSignOut() {
  const [logout] = useLogoutMutation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  return useCallback(async () => {
    try {
      await logout().unwrap();
    } catch {
      // The session ends locally even if the server could not be reached.
    }
    // Tell the session guard this is a deliberate logout, so it does not send us to sign-in.
    dispatch(signOutStarted());
    dispatch(signedOut());
    dispatch(api.util.resetApiState());
    await navigate('/', { replace: true });
  }, [logout, dispatch, navigate]);
}
