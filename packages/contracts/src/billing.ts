// Contracts of the billing endpoints (filled in by its module's work).
export {};
