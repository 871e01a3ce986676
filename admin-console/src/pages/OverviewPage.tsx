import { useRef, useState } from 'react';
import { api } from '../lib/api';
import type { GroupHealth, Overview } from '../lib/types';
import { append, nextRates, type Point, type RateState } from '../lib/rates';
import { formatAgo, formatCount, formatRate } from '../lib/format';
import { usePolling } from '../lib/usePolling';
import { LineChart } from '../components/LineChart';
import { ErrorLine, message } from '../components/ErrorLine';
import { DataPathLatency } from './DataPathLatency';

const POLL_MS = 3000;
const HISTORY = 200; // 10 minutes at 3 s

interface History {
  connections: Point[];
  received: Point[];
  sent: Point[];
  lag: Point[];
}

const empty: History = { connections: [], received: [], sent: [], lag: [] };

function GroupTable({ title, group }: { title: string; group: GroupHealth | null }) {
  if (!group) {
    return (
      <section className="card">
        <h3>{title}</h3>
        <p className="muted">not available</p>
      </section>
    );
  }
  return (
    <section className="card">
      <h3>
        {title} <span className={group.members.length > 0 ? 'ok' : 'down'}>{group.members.length} up</span>
      </h3>
      <p className="muted">
        consumer group {group.groupId}, {group.state}, lag {formatCount(group.lag)}
      </p>
      <table>
        <thead>
          <tr>
            <th>instance</th>
            <th>host</th>
            <th>partitions</th>
          </tr>
        </thead>
        <tbody>
          {group.members.map((m) => (
            <tr key={m.memberId}>
              <td>{m.clientId}</td>
              <td>{m.host}</td>
              <td>{m.partitions}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

export function OverviewPage() {
  const [overview, setOverview] = useState<Overview | null>(null);
  const [history, setHistory] = useState<History>(empty);
  const [error, setError] = useState<string | null>(null);
  const rates = useRef<RateState>({});

  usePolling(async () => {
    try {
      const o = await api<Overview>('/overview');
      const r = nextRates(rates.current, o);
      rates.current = r.state;
      const at = Date.parse(o.at);
      setOverview(o);
      setHistory((h) => ({
        connections: append(h.connections, { at, value: o.connections }, HISTORY),
        received: append(h.received, { at, value: r.received }, HISTORY),
        sent: append(h.sent, { at, value: r.sent }, HISTORY),
        lag: append(h.lag, { at, value: o.routing ? o.routing.lag : null }, HISTORY),
      }));
      setError(null);
    } catch (e) {
      setError(message(e));
    }
  }, POLL_MS);

  const now = overview ? Date.parse(overview.at) : Date.now();
  return (
    <div>
      <h2>Overview</h2>
      <ErrorLine error={error} />
      {overview?.problems.map((p) => (
        <p key={p} className="warning">
          {p}
        </p>
      ))}
      <div className="stats">
        <div>
          <span>connections</span>
          <strong data-testid="stat-connections">{formatCount(overview?.connections)}</strong>
        </div>
        <div>
          <span>sessions</span>
          <strong>{formatCount(overview?.sessions)}</strong>
        </div>
        <div>
          <span>transport nodes up</span>
          <strong>{overview ? overview.transportNodes.filter((n) => n.alive).length : '–'}</strong>
        </div>
        <div>
          <span>routing lag</span>
          <strong>{formatCount(overview?.routing?.lag)}</strong>
        </div>
      </div>
      <div className="charts">
        <LineChart title="Connections" points={history.connections} format={formatCount} />
        <LineChart title="Messages in" points={history.received} format={formatRate} color="#16a34a" />
        <LineChart title="Messages out" points={history.sent} format={formatRate} color="#9333ea" />
        <LineChart title="Routing consumer lag" points={history.lag} format={formatCount} color="#dc2626" />
      </div>
      <p className="muted">
        Every {POLL_MS / 1000} s. Message rates come from the counters each transport node publishes every $SYS
        interval (TRIBUTARY_SYS_INTERVAL).
      </p>
      <div className="cards">
        <section className="card wide">
          <h3>
            Transport nodes{' '}
            <span className="ok">{overview ? overview.transportNodes.filter((n) => n.alive).length : 0} up</span>
          </h3>
          <table>
            <thead>
              <tr>
                <th>node</th>
                <th>health</th>
                <th>connections</th>
                <th>messages in</th>
                <th>messages out</th>
                <th>last heartbeat</th>
                <th>up since</th>
              </tr>
            </thead>
            <tbody>
              {overview?.transportNodes.map((n) => (
                <tr key={`${n.nodeId}/${n.incarnation}`}>
                  <td>{n.nodeId}</td>
                  <td className={n.alive ? 'ok' : 'down'}>{n.alive ? 'up' : 'down'}</td>
                  <td>{formatCount(n.connections)}</td>
                  <td>{formatCount(n.messagesReceived)}</td>
                  <td>{formatCount(n.messagesSent)}</td>
                  <td>{formatAgo(n.lastSeen, now)}</td>
                  <td>{formatAgo(n.firstSeen, now)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
        <DataPathLatency hops={overview?.latency ?? []} />
        <GroupTable title="Routing instances" group={overview?.routing ?? null} />
        <GroupTable title="Session-service instances" group={overview?.sessionService ?? null} />
      </div>
    </div>
  );
}
