import { useEffect, useState } from 'react';
import { api, query } from '../lib/api';
import type { TenantPage } from '../lib/types';
import { Pager } from '../components/Pager';
import { ErrorLine, message } from '../components/ErrorLine';
import { TenantUsageView } from './TenantUsageView';
import { formatBytes } from '../lib/format';

const SIZE = 50;

/** The tenant whose usage the URL asks for: #/tenants?usage=acme. */
export function usageTenantOf(hash: string): string | null {
  const q = hash.indexOf('?');
  return q < 0 ? null : new URLSearchParams(hash.slice(q + 1)).get('usage');
}

/** A count against its quota: "3 / 5", or "3" and no limit. */
export function ofQuota(used: number, max: number | null | undefined): string {
  return max == null ? `${used} (no limit)` : `${used} / ${max}`;
}

/** A bytes-per-second quota: "1.0 KiB/s", or "no limit". */
export function bytesRate(max: number | null | undefined): string {
  return max == null ? 'no limit' : `${formatBytes(max)}/s`;
}

/** The tenants, each with a link to its metered usage per hour. */
export function TenantsPage() {
  const [page, setPage] = useState(0);
  const [results, setResults] = useState<TenantPage | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [usageOf, setUsageOf] = useState<string | null>(usageTenantOf(window.location.hash));

  useEffect(() => {
    const onHash = () => setUsageOf(usageTenantOf(window.location.hash));
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);

  useEffect(() => {
    api<TenantPage>(`/tenants${query({ page, size: SIZE })}`)
      .then((r) => {
        setResults(r);
        setError(null);
      })
      .catch((e) => setError(message(e)));
  }, [page]);

  if (usageOf) {
    return <TenantUsageView tenant={usageOf} />;
  }
  return (
    <div>
      <h2>Tenants</h2>
      <p className="muted">
        Each tenant's clients use their own topic namespace. Usage: messages and bytes in and out, connection time and
        stored bytes per hour (metering).
      </p>
      <ErrorLine error={error} />
      <table>
        <thead>
          <tr>
            <th>id</th>
            <th>description</th>
            <th>credentials</th>
            <th>connections</th>
            <th>max connections</th>
            <th title="unexpired retained messages stored for the tenant, against its quota">retained</th>
            <th title="messages each of the tenant's persistent sessions' queues holds at most">queue per session</th>
            <th title="payload bytes per second all of the tenant's clients may publish, across the cluster">bytes in</th>
            <th title="payload bytes per second delivered to all of the tenant's clients, across the cluster (QoS 0 beyond it dropped, QoS 1/2 delayed)">
              bytes out
            </th>
            <th />
          </tr>
        </thead>
        <tbody>
          {results?.items.map((t) => (
            <tr key={t.id}>
              <td className="mono">{t.id}</td>
              <td>{t.description ?? ''}</td>
              <td>{t.credentials}</td>
              <td>{t.connections}</td>
              <td>{t.maxConnections ?? 'no limit'}</td>
              <td className={t.maxRetained != null && t.retained >= t.maxRetained ? 'error' : undefined}>
                {ofQuota(t.retained, t.maxRetained)}
              </td>
              <td>{t.maxQueuedMessages ?? 'global limit'}</td>
              <td>{bytesRate(t.maxPublishBytesRate)}</td>
              <td>{bytesRate(t.maxDeliveryBytesRate)}</td>
              <td>
                <a href={`#/tenants?usage=${encodeURIComponent(t.id)}`}>Usage</a>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {results?.items.length === 0 && <p className="muted">No tenants yet: POST /api/v1/tenants creates one.</p>}
      {results && (
        <Pager
          page={page + 1}
          hasPrevious={page > 0}
          hasNext={(page + 1) * SIZE < results.total}
          onPrevious={() => setPage(page - 1)}
          onNext={() => setPage(page + 1)}
        />
      )}
    </div>
  );
}
