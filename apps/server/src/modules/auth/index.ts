/** What other modules may use of auth: sessions (sign in a user, end a user's sessions). */
export { issueTokens, revokeUserSessions, type TokenPair } from './sessions.ts';
