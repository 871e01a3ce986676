import { lazy, Suspense, useEffect, useState } from 'react';
import { logout, setUnauthorizedHandler, storedToken } from './lib/api';
import { PAGES, pageOf, type PagePath } from './lib/route';
import { LoginPage } from './pages/LoginPage';
import { OverviewPage } from './pages/OverviewPage';
import { SessionsPage } from './pages/SessionsPage';
import { SubscriptionsPage } from './pages/SubscriptionsPage';
import { RetainedPage } from './pages/RetainedPage';
import { CredentialsPage } from './pages/CredentialsPage';
import { KafkaPage } from './pages/KafkaPage';
import { MappingRulesPage } from './pages/MappingRulesPage';
import { TenantsPage } from './pages/TenantsPage';
// The MQTT client library is most of the bundle: loaded only when its page is opened.
const MqttClientPage = lazy(() => import('./pages/MqttClientPage').then((m) => ({ default: m.MqttClientPage })));

function Page({ path }: { path: PagePath }) {
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
      return <TenantsPage />;
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
  const [page, setPage] = useState<PagePath>(pageOf(window.location.hash));

  useEffect(() => {
    setUnauthorizedHandler(() => setSignedIn(false));
    const onHash = () => setPage(pageOf(window.location.hash));
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);

  if (!signedIn) {
    return <LoginPage onLoggedIn={() => setSignedIn(true)} />;
  }
  return (
    <div className="app">
      <nav>
        <h1>Tributary</h1>
        {PAGES.map((p) => (
          <a key={p.path} href={`#/${p.path}`} className={p.path === page ? 'active' : ''}>
            {p.title}
          </a>
        ))}
        <button type="button" className="link" onClick={() => void logout().then(() => setSignedIn(false))}>
          Sign out
        </button>
      </nav>
      <main>
        <Page path={page} />
      </main>
    </div>
  );
}
