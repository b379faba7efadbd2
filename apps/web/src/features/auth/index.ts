/**
 * The public surface of features/auth: what other features may import from it.
 * Sign-in, sign-up, password and account pages. Other features use the account calls and the change-password dialog.
 * Anything not exported here is internal to the feature.
 */
export { useMeQuery, useUpdateMeMutation } from './api.ts';
export { ChangePasswordDialog } from './components/ChangePasswordDialog.tsx';
