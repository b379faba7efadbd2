import type { AppModule } from '../index.ts';

/** Routes of the cases module (placeholder until the module lands). */
export const casesModule: AppModule = () => {};
