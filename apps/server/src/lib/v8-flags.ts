import { setFlagsFromString } from 'node:v8';

/**
 * V8 settings for the server's process, set before the app's modules load (main.ts imports this
 * first); V8's flags are the process's, so the embedded database's thread, started later, has them
 * too.
 *
 * Allocation-site pretenuring off. V8 watches where objects are allocated and, when most of a site's
 * objects survive a young-generation collection, allocates that site's objects straight in the old
 * generation from then on. Under load a request's objects often outlive one collection (50 requests
 * in flight, a collection every ~90 ms), so V8 moved the sites that build each request's statement
 * (drizzle's `sql` trees) there: with the lists at 50 connections they were 40 % of what a sampling
 * heap profile found surviving young collections. Dead there until the next full collection, they
 * also held every young object they pointed to alive through each scavenge, which then promoted it:
 * about 1 MB promoted per scavenge of the HTTP thread, each scavenge pausing it 6-7 ms, and while it
 * pauses no request in flight ends. Off: about 0.5 MB promoted and 3-4 ms per scavenge
 * (docs/performance-choices.md "Allocation-site pretenuring off").
 */
setFlagsFromString('--no-allocation-site-pretenuring');
