/** What the live events routes serve: the events page as the repository reads it, and stream tickets. */
export { liveEventsPage } from './live-events.repository.ts';
export { issueStreamTicket } from './stream-tickets.repository.ts';
