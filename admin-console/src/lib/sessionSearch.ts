// The sessions page's search: the criteria the form holds, and the query that asks for one page of them.
import { query } from './api';

export interface SessionCriteria {
  clientIdPrefix: string;
  username: string;
  nodeId: string;
  connected: 'any' | 'true' | 'false';
}

export const noCriteria: SessionCriteria = { clientIdPrefix: '', username: '', nodeId: '', connected: 'any' };

export const PAGE_SIZE = 25;

/** The search endpoint's path for a page starting after {@code after} (null: the first page). */
export function sessionSearchPath(criteria: SessionCriteria, after: string | null, limit = PAGE_SIZE): string {
  return (
    '/search/sessions' +
    query({
      clientIdPrefix: criteria.clientIdPrefix.trim(),
      username: criteria.username.trim(),
      nodeId: criteria.nodeId.trim(),
      connected: criteria.connected === 'any' ? null : criteria.connected,
      after,
      limit,
    })
  );
}

/** A client id as one percent-encoded path segment (client ids may hold '/', '#', '?'). */
export function sessionPath(clientId: string): string {
  return `/sessions/${encodeURIComponent(clientId)}`;
}
