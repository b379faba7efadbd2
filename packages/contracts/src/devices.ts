// Contracts of the devices endpoints (filled in by its module's work).
export {};
