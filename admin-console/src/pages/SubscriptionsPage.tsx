import { useEffect, useState, type FormEvent } from 'react';
import { api, query } from '../lib/api';
import type { HeldSubscription, SubscriptionKey, SubscriptionResults } from '../lib/types';
import { currentStart, firstPage, hasPrevious, nextPage, pageNumber, previousPage, type KeysetState } from '../lib/keyset';
import { Pager } from '../components/Pager';
import { ErrorLine, message } from '../components/ErrorLine';

interface Criteria {
  filterPrefix: string;
  clientId: string;
}

/** Members of each shared group on this page, in page order. */
export function shareGroups(items: HeldSubscription[]): Map<string, HeldSubscription[]> {
  const groups = new Map<string, HeldSubscription[]>();
  for (const item of items) {
    if (item.shareGroup === null) continue;
    const key = item.filter;
    groups.set(key, [...(groups.get(key) ?? []), item]);
  }
  return groups;
}

export function SubscriptionsPage() {
  const [form, setForm] = useState<Criteria>({ filterPrefix: '', clientId: '' });
  const [criteria, setCriteria] = useState<Criteria>(form);
  const [paging, setPaging] = useState<KeysetState<SubscriptionKey>>(firstPage());
  const [results, setResults] = useState<SubscriptionResults | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const start = currentStart(paging);
    api<SubscriptionResults>('/search/subscriptions' + query({
      filterPrefix: criteria.filterPrefix,
      clientId: criteria.clientId.trim(),
      afterFilter: start?.filter,
      afterClientId: start?.clientId,
      limit: 50,
    }))
      .then((r) => {
        setResults(r);
        setError(null);
      })
      .catch((e) => setError(message(e)));
  }, [criteria, paging]);

  function search(e: FormEvent) {
    e.preventDefault();
    setCriteria(form);
    setPaging(firstPage());
  }

  const groups = shareGroups(results?.items ?? []);
  return (
    <div>
      <h2>Subscriptions</h2>
      <form className="search" onSubmit={search}>
        <input name="filterPrefix" placeholder="filter prefix, e.g. meters/ or $share/" value={form.filterPrefix}
          onChange={(e) => setForm({ ...form, filterPrefix: e.target.value })} />
        <input name="clientId" placeholder="client id" value={form.clientId} onChange={(e) => setForm({ ...form, clientId: e.target.value })} />
        <button type="submit">Search</button>
        <button type="button" onClick={() => {
          const f = { filterPrefix: '$share/', clientId: '' };
          setForm(f);
          setCriteria(f);
          setPaging(firstPage());
        }}>
          Shared groups
        </button>
      </form>
      <ErrorLine error={error} />
      <table className="list">
        <thead>
          <tr>
            <th>filter</th>
            <th>shared group</th>
            <th>client id</th>
            <th>state</th>
            <th>QoS</th>
          </tr>
        </thead>
        <tbody>
          {results?.items.map((s) => (
            <tr key={`${s.filter}\u0000${s.clientId}`}>
              <td className="mono">{s.filter}</td>
              <td>{s.shareGroup ?? '–'}</td>
              <td className="mono">{s.clientId}</td>
              <td className={s.connected ? 'ok' : 'muted'}>{s.connected ? `on ${s.nodeId}` : 'offline'}</td>
              <td>{s.qos}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {results && results.items.length === 0 && <p className="muted">No subscription matches.</p>}
      <Pager page={pageNumber(paging)} hasPrevious={hasPrevious(paging)} hasNext={!!results?.next}
        onPrevious={() => setPaging(previousPage(paging))} onNext={() => setPaging(nextPage(paging, results?.next ?? null))} />
      {groups.size > 0 && (
        <section>
          <h3>Shared groups on this page</h3>
          <ul>
            {[...groups.entries()].map(([filter, members]) => (
              <li key={filter}>
                <span className="mono">{filter}</span>: {members.length} member(s), {members.filter((m) => m.connected).length} connected —{' '}
                {members.map((m) => m.clientId).join(', ')}
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
