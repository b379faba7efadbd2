import type { AppModule } from '../index.ts';

/** Routes of the licenses module (placeholder until the module lands). */
export const licensesModule: AppModule = () => {};
