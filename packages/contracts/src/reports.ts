// Contracts of the reports endpoints (filled in by its module's work).
export {};
