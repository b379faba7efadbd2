import type { AppModule } from '../index.ts';

/** Routes of the devices module (placeholder until the module lands). */
export const devicesModule: AppModule = () => {};
