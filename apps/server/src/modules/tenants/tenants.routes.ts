import type { AppModule } from '../index.ts';

/** Routes of the tenants module (placeholder until the module lands). */
export const tenantsModule: AppModule = () => {};
