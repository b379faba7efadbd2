import type { AppModule } from '../index.ts';

/** Routes of the live-events module (placeholder until the module lands). */
export const liveEventsModule: AppModule = () => {};
