import type { AppModule } from '../index.ts';

/** Routes of the reports module (placeholder until the module lands). */
export const reportsModule: AppModule = () => {};
