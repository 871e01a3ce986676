// Pages are chosen by the URL fragment (#/sessions), so the server only ever serves index.html.

export const PAGES = [
  { path: 'overview', title: 'Overview' },
  { path: 'sessions', title: 'Sessions' },
  { path: 'subscriptions', title: 'Subscriptions' },
  { path: 'retained', title: 'Retained' },
  { path: 'credentials', title: 'Credentials & ACLs' },
  { path: 'tenants', title: 'Tenants' },
  { path: 'kafka', title: 'Kafka' },
  { path: 'rules', title: 'Kafka rules' },
  { path: 'mqtt', title: 'MQTT client' },
] as const;

export type PagePath = (typeof PAGES)[number]['path'];

export function pageOf(hash: string): PagePath {
  const path = hash.replace(/^#\/?/, '').split(/[/?]/)[0];
  return PAGES.some((p) => p.path === path) ? (path as PagePath) : 'overview';
}
