// Contracts of the portals endpoints (filled in by its module's work).
export {};
