import type { AppModule } from '../index.ts';

/** Routes of the portals module (placeholder until the module lands). */
export const portalsModule: AppModule = () => {};
