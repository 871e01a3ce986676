import type { HopLatency } from '../lib/types';
import { formatMillis } from '../lib/format';

/** What each hop id of GET /api/v1/overview's latency means, in the order a message takes them. */
const HOP_NAMES: Record<string, string> = {
  'publish-ack': 'PUBLISH → Kafka acknowledged (what a PUBACK waits for)',
  'publish-to-router': 'publish topic → router reads it',
  route: 'router: batch polled → downlink records acknowledged',
  'downlink-to-node': 'downlink topic → transport node reads it',
  'node-to-socket': 'transport node → written to the subscribers’ sockets',
};

/**
 * The data path hop by hop: the worst p50 and p99 among the instances that measure each hop, over their recent
 * window, from the figures they publish under $SYS.
 */
export function DataPathLatency({ hops }: { hops: HopLatency[] }) {
  const reported = hops.filter((h) => h.instances > 0);
  const p50Sum = reported.reduce((sum, h) => sum + (h.p50Millis ?? 0), 0);
  return (
    <section className="card wide">
      <h3>Data path latency</h3>
      <p className="muted">
        Per hop, the worst instance’s p50 and p99 over its last minutes, from the $SYS figures of the transport nodes
        and routers. An idle hop reads 0.
      </p>
      <table>
        <thead>
          <tr>
            <th>hop</th>
            <th>measured by</th>
            <th>p50</th>
            <th>p99</th>
            <th>instances</th>
          </tr>
        </thead>
        <tbody>
          {hops.map((h) => (
            <tr key={h.hop} data-testid={`hop-${h.hop}`}>
              <td title={h.hop}>{HOP_NAMES[h.hop] ?? h.hop}</td>
              <td>{h.measuredBy}</td>
              <td>{formatMillis(h.p50Millis)}</td>
              <td>{formatMillis(h.p99Millis)}</td>
              <td>{h.instances}</td>
            </tr>
          ))}
        </tbody>
        {reported.length > 0 && (
          <tfoot>
            <tr>
              <td>sum of the p50s (a message’s typical way through)</td>
              <td />
              <td data-testid="hop-p50-sum">{formatMillis(p50Sum)}</td>
              <td />
              <td />
            </tr>
          </tfoot>
        )}
      </table>
    </section>
  );
}
