// Contracts of the cases endpoints (filled in by its module's work).
export {};
