import type { AppModule } from '../index.ts';

/** Routes of the billing module (placeholder until the module lands). */
export const billingModule: AppModule = () => {};
