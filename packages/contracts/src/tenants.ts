// Contracts of the tenants endpoints (filled in by its module's work).
export {};
