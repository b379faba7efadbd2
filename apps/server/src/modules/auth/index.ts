/** What other modules, the start-up list and the command line may use of auth: sessions (sign in a user, end a user's sessions) and the superAdmin account. */
export { issueTokens, revokeUserSessions, type SessionsBus, type TokenPair } from './sessions.ts';
export { SuperAdminError, ensureSuperAdmin, isCommonPassword } from './superadmin.ts';
export { superAdminStartup } from './auth.startup.ts';
