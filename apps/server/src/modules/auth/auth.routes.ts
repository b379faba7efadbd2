import type { AppModule } from '../index.ts';

/** Routes of the auth module (placeholder until the module lands). */
export const authModule: AppModule = () => {};
