import { useEffect, useState } from 'react';
import { api, query } from '../lib/api';
import type { TenantUsage } from '../lib/types';
import { ErrorLine, message } from '../components/ErrorLine';
import { formatBytes, formatCount, formatSeconds, formatTime } from '../lib/format';

/** How far back the view looks, in hours (the API answers at most TRIBUTARY_METERING_MAX_QUERY_RANGE). */
const RANGES = [24, 48, 168, 744] as const;

/** from/to of the last {@code hours} hours, ending with the current one: whole ISO hours, to exclusive. */
export function lastHours(hours: number, now: number): { from: string; to: string } {
  const end = new Date(now);
  end.setUTCMinutes(0, 0, 0);
  end.setUTCHours(end.getUTCHours() + 1);
  const start = new Date(end.getTime() - hours * 3600_000);
  const iso = (d: Date) => d.toISOString().replace('.000Z', 'Z');
  return { from: iso(start), to: iso(end) };
}

/** One tenant's metered usage: a row per hour with usage, and the totals of the range. */
export function TenantUsageView({ tenant }: { tenant: string }) {
  const [hours, setHours] = useState<number>(24);
  const [usage, setUsage] = useState<TenantUsage | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const range = lastHours(hours, Date.now());
    api<TenantUsage>(`/tenants/${encodeURIComponent(tenant)}/usage${query(range)}`)
      .then((u) => {
        setUsage(u);
        setError(null);
      })
      .catch((e) => setError(message(e)));
  }, [tenant, hours]);

  const t = usage?.totals;
  return (
    <div>
      <h2>
        Usage of tenant <span className="mono">{tenant}</span>
      </h2>
      <div className="actions">
        <a href="#/tenants">‹ Tenants</a>
        <label className="inline">
          Last
          <select value={hours} onChange={(e) => setHours(Number(e.target.value))}>
            {RANGES.map((h) => (
              <option key={h} value={h}>
                {h} hours
              </option>
            ))}
          </select>
        </label>
      </div>
      <p className="muted">
        Per UTC hour: PUBLISH packets of the tenant's clients stored by Kafka (in) and written to its clients (out), their
        payload bytes, connected clients × time, and the payload bytes of its retained messages as last sampled in the
        hour. The current hour grows for a few seconds after the traffic.
      </p>
      <ErrorLine error={error} />
      {usage && (
        <table>
          <thead>
            <tr>
              <th>hour (UTC)</th>
              <th>messages in</th>
              <th>bytes in</th>
              <th>messages out</th>
              <th>bytes out</th>
              <th>connection time</th>
              <th>stored</th>
            </tr>
          </thead>
          <tbody>
            {usage.hours.map((h) => (
              <tr key={h.hour} data-hour={h.hour}>
                <td>{formatTime(h.hour)}</td>
                <td>{formatCount(h.messagesIn)}</td>
                <td>{formatBytes(h.bytesIn)}</td>
                <td>{formatCount(h.messagesOut)}</td>
                <td>{formatBytes(h.bytesOut)}</td>
                <td>{formatSeconds(h.connectionSeconds)}</td>
                <td>{formatBytes(h.storedBytes)}</td>
              </tr>
            ))}
          </tbody>
          {t && (
            <tfoot>
              <tr>
                <th>total</th>
                <th data-testid="usage-total-messages-in">{formatCount(t.messagesIn)}</th>
                <th data-testid="usage-total-bytes-in">{formatBytes(t.bytesIn)}</th>
                <th data-testid="usage-total-messages-out">{formatCount(t.messagesOut)}</th>
                <th>{formatBytes(t.bytesOut)}</th>
                <th>{formatSeconds(t.connectionSeconds)}</th>
                <th title="stored bytes times hours">{formatBytes(t.storedByteHours)}·h</th>
              </tr>
            </tfoot>
          )}
        </table>
      )}
      {usage?.hours.length === 0 && <p className="muted">No usage in these hours.</p>}
    </div>
  );
}
