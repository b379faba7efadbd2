// Contracts of the auth endpoints (filled in by its module's work).
export {};
