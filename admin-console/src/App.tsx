import { lazy, Suspense, useEffect, useState } from 'react';
import { api, logout, setUnauthorizedHandler, storedToken } from './lib/api';
import { pageOf, pagesFor, type PagePath } from './lib/route';
import type { AdminPrincipal } from './lib/types';
import { LoginPage } from './pages/LoginPage';
import { OverviewPage } from './pages/OverviewPage';
import { SessionsPage } from './pages/SessionsPage';
import { SubscriptionsPage } from './pages/SubscriptionsPage';
import { RetainedPage } from './pages/RetainedPage';
import { CredentialsPage } from './pages/CredentialsPage';
import { KafkaPage } from './pages/KafkaPage';
import { MappingRulesPage } from './pages/MappingRulesPage';
import { TenantsPage } from './pages/TenantsPage';
import { TenantUsageView } from './pages/TenantUsageView';
// The MQTT client library is most of the bundle: loaded only when its page is opened.
const MqttClientPage = lazy(() => import('./pages/MqttClientPage').then((m) => ({ default: m.MqttClientPage })));

function Page({ path, tenant }: { path: PagePath; tenant: string | null }) {
  switch (path) {
    case 'sessions':
      return <SessionsPage />;
    case 'subscriptions':
      return <SubscriptionsPage />;
    case 'retained':
      return <RetainedPage />;
    case 'credentials':
      return <CredentialsPage />;
    case 'tenants':
      // An admin scoped to a tenant reads its own tenant's usage; the list of tenants is the cluster admin's.
      return tenant ? <TenantUsageView tenant={tenant} /> : <TenantsPage />;
    case 'kafka':
      return <KafkaPage />;
    case 'rules':
      return <MappingRulesPage />;
    case 'mqtt':
      return (
        <Suspense fallback={<p className="muted">Loading…</p>}>
          <MqttClientPage />
        </Suspense>
      );
    default:
      return <OverviewPage />;
  }
}

export function App() {
  const [signedIn, setSignedIn] = useState(storedToken() !== null);
  const [hash, setHash] = useState(window.location.hash);
  // Who signed in: an admin scoped to a tenant sees only the pages the API lets it use. Undefined while asked.
  const [me, setMe] = useState<AdminPrincipal | null | undefined>(undefined);

  useEffect(() => {
    setUnauthorizedHandler(() => setSignedIn(false));
    const onHash = () => setHash(window.location.hash);
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);

  useEffect(() => {
    if (!signedIn) {
      setMe(undefined);
      return;
    }
    api<AdminPrincipal>('/admin/me')
      .then(setMe)
      // Not told (an older session-service): the whole console; the API still refuses what the admin may not do.
      .catch(() => setMe(null));
  }, [signedIn]);

  if (!signedIn) {
    return <LoginPage onLoggedIn={() => setSignedIn(true)} />;
  }
  if (me === undefined) {
    return <p className="muted">Loading…</p>;
  }
  const tenant = me?.tenant ?? null;
  const page = pageOf(hash, tenant);
  return (
    <div className="app">
      <nav>
        <h1>Tributary</h1>
        {tenant && (
          <p className="muted">
            {me?.username} · tenant <span className="mono">{tenant}</span>
          </p>
        )}
        {pagesFor(tenant).map((p) => (
          <a key={p.path} href={`#/${p.path}`} className={p.path === page ? 'active' : ''}>
            {p.path === 'tenants' && tenant ? 'Usage' : p.title}
          </a>
        ))}
        <button type="button" className="link" onClick={() => void logout().then(() => setSignedIn(false))}>
          Sign out
        </button>
      </nav>
      <main>
        <Page path={page} tenant={tenant} />
      </main>
    </div>
  );
}
