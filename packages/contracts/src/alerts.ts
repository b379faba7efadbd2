// Contracts of the alerts endpoints (filled in by its module's work).
export {};
