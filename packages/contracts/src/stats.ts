// Contracts of the stats endpoints (filled in by its module's work).
export {};
