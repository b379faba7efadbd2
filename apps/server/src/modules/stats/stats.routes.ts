import type { AppModule } from '../index.ts';

/** Routes of the stats module (placeholder until the module lands). */
export const statsModule: AppModule = () => {};
