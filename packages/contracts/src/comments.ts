// Contracts of the comments endpoints (filled in by its module's work).
export {};
