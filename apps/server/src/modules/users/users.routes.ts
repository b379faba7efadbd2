import type { AppModule } from '../index.ts';

/** Routes of the users module (placeholder until the module lands). */
export const usersModule: AppModule = () => {};
