/**
 * The public surface of features/tenants: what other features may import from it.
 * Tenants: list, detail, creation, and the tenant form. Other features edit the signed-in tenant with the same form and calls.
 * Anything not exported here is internal to the feature.
 */
export { useAllTenantsQuery, useCreateTenantMutation, useTenantQuery, useUpdateTenantMutation } from './api.ts';
export { TenantFormFields, cleanTenantForm, tenantFormDefaults, type TenantFormValues } from './components/TenantFormFields.tsx';
