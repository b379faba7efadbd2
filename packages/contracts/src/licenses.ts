// Contracts of the licenses endpoints (filled in by its module's work).
export {};
