import type { AppModule } from '../index.ts';

/** Routes of the alerts module (placeholder until the module lands). */
export const alertsModule: AppModule = () => {};
