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

/**
 * What an admin scoped to a tenant may open: the API answers 403 to it for everything but its tenant's credentials
 * and its own tenant's usage (session-service API.md, "Admin users").
 */
const TENANT_ADMIN_PAGES: readonly PagePath[] = ['credentials', 'tenants'];

/** The pages of the navigation for an admin: all of them, or a scoped admin's. */
export function pagesFor(tenant: string | null | undefined): readonly (typeof PAGES)[number][] {
  return tenant ? PAGES.filter((p) => TENANT_ADMIN_PAGES.includes(p.path)) : PAGES;
}

/** The page the URL fragment names, if the admin may open it; else its first page. */
export function pageOf(hash: string, tenant?: string | null): PagePath {
  const path = hash.replace(/^#\/?/, '').split(/[/?]/)[0];
  const pages = pagesFor(tenant);
  return pages.some((p) => p.path === path) ? (path as PagePath) : pages[0].path;
}
