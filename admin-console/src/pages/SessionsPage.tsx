import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { api } from '../lib/api';
import type { DisconnectAccepted, Session, SessionDetails, SessionResults, Subscription } from '../lib/types';
import { currentStart, firstPage, hasPrevious, nextPage, pageNumber, previousPage, type KeysetState } from '../lib/keyset';
import { noCriteria, sessionPath, sessionSearchPath, type SessionCriteria } from '../lib/sessionSearch';
import { formatCount, formatSeconds, formatTime, protocolName } from '../lib/format';
import { Pager } from '../components/Pager';
import { ErrorLine, message } from '../components/ErrorLine';

function Details({ clientId, onChanged }: { clientId: string; onChanged: () => void }) {
  const [details, setDetails] = useState<SessionDetails | null>(null);
  const [subscriptions, setSubscriptions] = useState<Subscription[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      const [d, s] = await Promise.all([
        api<SessionDetails>(sessionPath(clientId)),
        api<Subscription[]>(`${sessionPath(clientId)}/subscriptions`),
      ]);
      setDetails(d);
      setSubscriptions(s);
      setError(null);
    } catch (e) {
      setDetails(null);
      setError(message(e));
    }
  }, [clientId]);

  useEffect(() => {
    setNotice(null);
    void load();
  }, [load]);

  async function disconnect() {
    try {
      const accepted = await api<DisconnectAccepted>(`${sessionPath(clientId)}/disconnect`, { method: 'POST' });
      setNotice(`Disconnect sent to node ${accepted.nodeId} (reason 0x98, administrative action).`);
      setTimeout(() => {
        void load();
        onChanged();
      }, 1000);
    } catch (e) {
      setError(message(e));
    }
  }

  async function remove() {
    if (!window.confirm(`Remove the session of ${clientId} and its subscriptions?`)) return;
    try {
      await api<void>(sessionPath(clientId), { method: 'DELETE' });
      setNotice('Session removed.');
      setDetails(null);
      onChanged();
    } catch (e) {
      setError(message(e));
    }
  }

  const s = details?.session;
  return (
    <aside className="details" data-testid="session-details">
      <h3>{clientId}</h3>
      <ErrorLine error={error} />
      {notice && <p className="notice">{notice}</p>}
      {s && (
        <>
          <dl>
            <dt>state</dt>
            <dd data-testid="session-state">{s.connected ? `connected to ${s.nodeId}` : 'offline'}</dd>
            <dt>protocol</dt>
            <dd>{protocolName(s.protocolVersion)}</dd>
            <dt>keep alive</dt>
            <dd>{formatSeconds(s.keepAliveSeconds)}</dd>
            <dt>session expiry</dt>
            <dd>{formatSeconds(s.sessionExpirySeconds)}</dd>
            <dt>clean start</dt>
            <dd>{String(s.cleanStart)}</dd>
            <dt>address</dt>
            <dd>{s.remoteAddress ?? '–'}</dd>
            <dt>user name</dt>
            <dd>{s.username ?? '–'}</dd>
            <dt>connected since</dt>
            <dd>{s.connected ? formatTime(s.connectedAt) : '–'}</dd>
            <dt>disconnected at</dt>
            <dd>{formatTime(s.disconnectedAt)}</dd>
            <dt>expires at</dt>
            <dd>{formatTime(s.expiresAt)}</dd>
            <dt>queued (in flight or waiting)</dt>
            <dd>{details?.queue ? formatCount(details.queue.queued) : details?.presenceError ?? '–'}</dd>
            <dt>dropped by full queue</dt>
            <dd>{details?.queue ? formatCount(details.queue.dropped) : '–'}</dd>
            <dt>epoch</dt>
            <dd>{s.epoch}</dd>
          </dl>
          <div className="actions">
            <button type="button" disabled={!s.connected} onClick={() => void disconnect()}>
              Disconnect
            </button>
            <button type="button" className="danger" disabled={s.connected} onClick={() => void remove()}>
              Remove session
            </button>
            <button type="button" onClick={() => void load()}>
              Refresh
            </button>
          </div>
          <h4>Subscriptions ({subscriptions.length})</h4>
          <table>
            <thead>
              <tr>
                <th>filter</th>
                <th>QoS</th>
                <th>options</th>
              </tr>
            </thead>
            <tbody>
              {subscriptions.map((sub) => (
                <tr key={sub.filter}>
                  <td className="mono">{sub.filter}</td>
                  <td>{sub.qos}</td>
                  <td>
                    {[sub.noLocal && 'no local', sub.retainAsPublished && 'retain as published',
                      `retain handling ${sub.retainHandling}`, sub.subscriptionId !== null && `id ${sub.subscriptionId}`]
                      .filter(Boolean)
                      .join(', ')}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </aside>
  );
}

export function SessionsPage() {
  const [form, setForm] = useState<SessionCriteria>(noCriteria);
  const [criteria, setCriteria] = useState<SessionCriteria>(noCriteria);
  const [paging, setPaging] = useState<KeysetState<string>>(firstPage());
  const [results, setResults] = useState<SessionResults | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [reload, setReload] = useState(0);

  useEffect(() => {
    let current = true;
    api<SessionResults>(sessionSearchPath(criteria, currentStart(paging)))
      .then((r) => {
        if (current) {
          setResults(r);
          setError(null);
        }
      })
      .catch((e) => current && setError(message(e)));
    return () => {
      current = false;
    };
  }, [criteria, paging, reload]);

  function search(e: FormEvent) {
    e.preventDefault();
    setCriteria(form);
    setPaging(firstPage());
  }

  const field = (name: keyof SessionCriteria) => (e: { target: { value: string } }) =>
    setForm({ ...form, [name]: e.target.value });

  return (
    <div className="split">
      <div>
        <h2>Sessions</h2>
        <form className="search" onSubmit={search}>
          <input name="clientIdPrefix" placeholder="client id prefix" value={form.clientIdPrefix} onChange={field('clientIdPrefix')} />
          <input name="username" placeholder="user name" value={form.username} onChange={field('username')} />
          <input name="nodeId" placeholder="node" value={form.nodeId} onChange={field('nodeId')} />
          <select name="connected" value={form.connected} onChange={field('connected')}>
            <option value="any">connected or not</option>
            <option value="true">connected</option>
            <option value="false">offline</option>
          </select>
          <button type="submit">Search</button>
        </form>
        <ErrorLine error={error} />
        <table className="list">
          <thead>
            <tr>
              <th>client id</th>
              <th>state</th>
              <th>node</th>
              <th>user name</th>
              <th>protocol</th>
              <th>address</th>
            </tr>
          </thead>
          <tbody>
            {results?.items.map((s: Session) => (
              <tr key={s.clientId} className={s.clientId === selected ? 'selected' : ''} onClick={() => setSelected(s.clientId)}
                data-client-id={s.clientId}>
                <td className="mono">{s.clientId}</td>
                <td className={s.connected ? 'ok' : 'muted'}>{s.connected ? 'connected' : 'offline'}</td>
                <td>{s.nodeId ?? '–'}</td>
                <td>{s.username ?? '–'}</td>
                <td>{protocolName(s.protocolVersion)}</td>
                <td>{s.remoteAddress ?? '–'}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {results && results.items.length === 0 && <p className="muted">No session matches.</p>}
        <Pager page={pageNumber(paging)} hasPrevious={hasPrevious(paging)} hasNext={!!results?.next}
          onPrevious={() => setPaging(previousPage(paging))} onNext={() => setPaging(nextPage(paging, results?.next ?? null))} />
      </div>
      {selected && <Details clientId={selected} onChanged={() => setReload((n) => n + 1)} />}
    </div>
  );
}
