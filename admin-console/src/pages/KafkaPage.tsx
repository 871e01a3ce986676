import { Fragment, useState } from 'react';
import { api } from '../lib/api';
import type { KafkaGroup, KafkaGroupSummary, KafkaTopic } from '../lib/types';
import { formatCount } from '../lib/format';
import { usePolling } from '../lib/usePolling';
import { ErrorLine, message } from '../components/ErrorLine';

export function KafkaPage() {
  const [topics, setTopics] = useState<KafkaTopic[]>([]);
  const [groups, setGroups] = useState<KafkaGroupSummary[]>([]);
  const [group, setGroup] = useState<KafkaGroup | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  usePolling(async () => {
    try {
      const [t, g] = await Promise.all([api<KafkaTopic[]>('/kafka/topics'), api<KafkaGroupSummary[]>('/kafka/groups')]);
      setTopics(t);
      setGroups(g);
      setError(null);
    } catch (e) {
      setError(message(e));
    }
  }, 10000);

  async function showGroup(id: string) {
    try {
      setGroup(await api<KafkaGroup>(`/kafka/groups/${encodeURIComponent(id)}`));
    } catch (e) {
      setError(message(e));
    }
  }

  return (
    <div>
      <h2>Kafka</h2>
      <ErrorLine error={error} />
      <h3>Consumer groups</h3>
      <table className="list">
        <thead>
          <tr>
            <th>group</th>
            <th>state</th>
            <th>members</th>
            <th>lag</th>
          </tr>
        </thead>
        <tbody>
          {groups.map((g) => (
            <tr key={g.groupId} onClick={() => void showGroup(g.groupId)}>
              <td className="mono">{g.groupId}</td>
              <td>{g.state}</td>
              <td>{g.members}</td>
              <td>{formatCount(g.lag)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {group && (
        <section className="card">
          <h4>{group.groupId}: lag per partition</h4>
          <table>
            <thead>
              <tr>
                <th>topic</th>
                <th>partition</th>
                <th>committed</th>
                <th>end</th>
                <th>lag</th>
              </tr>
            </thead>
            <tbody>
              {group.partitions.map((p) => (
                <tr key={`${p.topic}-${p.partition}`}>
                  <td className="mono">{p.topic}</td>
                  <td>{p.partition}</td>
                  <td>{formatCount(p.committed)}</td>
                  <td>{formatCount(p.endOffset)}</td>
                  <td>{formatCount(p.lag)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
      <h3>Topics</h3>
      <table className="list">
        <thead>
          <tr>
            <th>topic</th>
            <th>partitions</th>
            <th>messages held</th>
          </tr>
        </thead>
        <tbody>
          {topics.map((t) => (
            <Fragment key={t.name}>
              <tr onClick={() => setOpen(open === t.name ? null : t.name)}>
                <td className="mono">{t.name}</td>
                <td>{t.partitions.length}</td>
                <td>{formatCount(t.messages)}</td>
              </tr>
              {open === t.name && (
                <tr>
                  <td colSpan={3}>
                    <table>
                      <thead>
                        <tr>
                          <th>partition</th>
                          <th>leader</th>
                          <th>replicas</th>
                          <th>in sync</th>
                          <th>start</th>
                          <th>end</th>
                        </tr>
                      </thead>
                      <tbody>
                        {t.partitions.map((p) => (
                          <tr key={p.partition}>
                            <td>{p.partition}</td>
                            <td>{p.leader ?? 'none'}</td>
                            <td>{p.replicas.join(', ')}</td>
                            <td>{p.isr.join(', ')}</td>
                            <td>{formatCount(p.startOffset)}</td>
                            <td>{formatCount(p.endOffset)}</td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  </td>
                </tr>
              )}
            </Fragment>
          ))}
        </tbody>
      </table>
    </div>
  );
}
