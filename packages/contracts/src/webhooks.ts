// Contracts of the webhooks endpoints (filled in by its module's work).
export {};
