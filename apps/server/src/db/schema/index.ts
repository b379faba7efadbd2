export * from './accounts.ts';
export * from './monitoring.ts';
export * from './operations.ts';
export * from './billing.ts';
export * from './rollups.ts';
export * from './counts.ts';
export * from './kept-windows.ts';
export * from './notifications.ts';
