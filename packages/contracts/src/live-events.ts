// Contracts of the live-events endpoints (filled in by its module's work).
export {};
