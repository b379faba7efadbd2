import type { AppModule } from '../index.ts';

/** Routes of the webhooks module (placeholder until the module lands). */
export const webhooksModule: AppModule = () => {};
