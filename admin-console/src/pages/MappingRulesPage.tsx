import { useEffect, useState, type FormEvent } from 'react';
import { api } from '../lib/api';
import type { MappingRule, MappingRuleRequest } from '../lib/types';
import { ErrorLine, message } from '../components/ErrorLine';
import { KafkaToMqttRules } from './KafkaToMqttRules';

interface Form {
  filter: string;
  kafkaTopic: string;
  key: string;
  partitions: string;
}

const blank: Form = { filter: '', kafkaTopic: '', key: 'topic', partitions: '' };

/** The form as the API takes it; an empty partition count means "the topic must exist". */
export function toRequest(f: Form): MappingRuleRequest {
  const partitions = f.partitions.trim();
  return {
    filter: f.filter.trim(),
    kafkaTopic: f.kafkaTopic.trim(),
    key: f.key.trim() === '' ? 'topic' : f.key.trim(),
    partitions: partitions === '' ? null : Number(partitions),
  };
}

/** The key choices a filter offers: the fixed ones and one per named level ({vin}). */
export function keyChoices(filter: string): string[] {
  const levels = filter.split('/').filter((l) => /^\{[A-Za-z_][A-Za-z0-9_-]*\}$/.test(l));
  return ['topic', 'client-id', 'none', ...levels];
}

export function MappingRulesPage() {
  const [rules, setRules] = useState<MappingRule[] | null>(null);
  const [form, setForm] = useState<Form>(blank);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [reload, setReload] = useState(0);

  useEffect(() => {
    api<MappingRule[]>('/rules/mqtt-to-kafka')
      .then((r) => setRules(r))
      .catch((e) => setError(message(e)));
  }, [reload]);

  async function save(e: FormEvent) {
    e.preventDefault();
    try {
      const created = await api<MappingRule>('/rules/mqtt-to-kafka', { method: 'POST', body: JSON.stringify(toRequest(form)) });
      setNotice(`Rule ${created.id} added: '${created.filter}' -> ${created.kafkaTopic}.`);
      setError(null);
      setForm(blank);
      setReload((n) => n + 1);
    } catch (err) {
      setNotice(null);
      setError(message(err));
    }
  }

  async function remove(r: MappingRule) {
    if (!window.confirm(`Delete rule ${r.id}? Publishes on '${r.filter}' stop going to ${r.kafkaTopic}.`)) return;
    try {
      await api<void>(`/rules/mqtt-to-kafka/${r.id}`, { method: 'DELETE' });
      setReload((n) => n + 1);
    } catch (err) {
      setError(message(err));
    }
  }

  const set = (name: keyof Form) => (e: { target: { value: string } }) => setForm({ ...form, [name]: e.target.value });
  return (
    <div>
      <h2>MQTT to Kafka rules</h2>
      <p className="muted">
        Every PUBLISH whose topic matches a rule's filter is also written to the rule's Kafka topic (payload untouched, MQTT
        metadata in headers); its PUBACK waits for both writes. Name a level as {'{vin}'} to key the records by it.
      </p>
      <ErrorLine error={error} />
      {notice && <p className="notice">{notice}</p>}
      <form onSubmit={save} className="stacked">
        <label>MQTT topic filter<input value={form.filter} onChange={set('filter')} placeholder="vehicles/{vin}/telemetry/#" /></label>
        <label>Kafka topic<input value={form.kafkaTopic} onChange={set('kafkaTopic')} placeholder="vehicle-telemetry" /></label>
        <label>
          Record key
          <select value={form.key} onChange={set('key')}>
            {keyChoices(form.filter).map((k) => <option key={k} value={k}>{k}</option>)}
          </select>
        </label>
        <label>Partitions (only to create a missing topic)<input value={form.partitions} onChange={set('partitions')} inputMode="numeric" /></label>
        <div className="actions">
          <button type="submit">Add rule</button>
        </div>
      </form>
      <table className="list">
        <thead>
          <tr>
            <th>id</th>
            <th>MQTT filter</th>
            <th>Kafka topic</th>
            <th>key</th>
            <th>created</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {rules?.map((r) => (
            <tr key={r.id}>
              <td>{r.id}</td>
              <td className="mono">{r.filter}</td>
              <td className="mono">{r.kafkaTopic}</td>
              <td className="mono">{r.key}</td>
              <td>{r.createdAt}</td>
              <td>
                <button type="button" className="danger" onClick={() => void remove(r)}>Delete</button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {rules?.length === 0 && <p className="muted">No rules: MQTT messages go to tributary.publish only.</p>}
      <KafkaToMqttRules />
    </div>
  );
}
