// Contracts of the users endpoints (filled in by its module's work).
export {};
