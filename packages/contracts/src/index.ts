export * from './endpoint.ts';
export * from './envelope.ts';
export * from './enums.ts';
export * from './messages.ts';
export * from './list-query.ts';
export * from './fields.ts';
export * from './health.ts';
