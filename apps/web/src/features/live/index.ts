/**
 * The public surface of features/live: what other features may import from it.
 * The live event stream (alerts as they happen). Other features read the recent live events.
 * Anything not exported here is internal to the feature.
 */
export { useLiveEventsQuery } from './api.ts';
