import { useEffect, useState, type FormEvent } from 'react';
import { api } from '../lib/api';
import type { BridgeRule, BridgeRuleRequest } from '../lib/types';
import { ErrorLine, message } from '../components/ErrorLine';

interface Form {
  kafkaTopic: string;
  mqttTopic: string;
  /** '' = from the record's mqtt.qos header */
  qos: string;
  /** '' = from the record's mqtt.retain header */
  retain: string;
}

const blank: Form = { kafkaTopic: '', mqttTopic: '', qos: '1', retain: '' };

export function toBridgeRequest(f: Form): BridgeRuleRequest {
  return {
    kafkaTopic: f.kafkaTopic.trim(),
    mqttTopic: f.mqttTopic.trim(),
    qos: f.qos === '' ? null : Number(f.qos),
    retain: f.retain === '' ? null : f.retain === 'true',
  };
}

/** Kafka-to-MQTT rules: records of a Kafka topic delivered to MQTT subscribers. */
export function KafkaToMqttRules() {
  const [rules, setRules] = useState<BridgeRule[] | null>(null);
  const [form, setForm] = useState<Form>(blank);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [reload, setReload] = useState(0);

  useEffect(() => {
    api<BridgeRule[]>('/rules/kafka-to-mqtt')
      .then((r) => setRules(r))
      .catch((e) => setError(message(e)));
  }, [reload]);

  async function save(e: FormEvent) {
    e.preventDefault();
    try {
      const created = await api<BridgeRule>('/rules/kafka-to-mqtt', { method: 'POST', body: JSON.stringify(toBridgeRequest(form)) });
      setNotice(`Rule ${created.id} added: ${created.kafkaTopic} -> '${created.mqttTopic}'.`);
      setError(null);
      setForm(blank);
      setReload((n) => n + 1);
    } catch (err) {
      setNotice(null);
      setError(message(err));
    }
  }

  async function remove(r: BridgeRule) {
    if (!window.confirm(`Delete rule ${r.id}? Records of ${r.kafkaTopic} stop reaching MQTT.`)) return;
    try {
      await api<void>(`/rules/kafka-to-mqtt/${r.id}`, { method: 'DELETE' });
      setReload((n) => n + 1);
    } catch (err) {
      setError(message(err));
    }
  }

  const set = (name: keyof Form) => (e: { target: { value: string } }) => setForm({ ...form, [name]: e.target.value });
  return (
    <div>
      <h2>Kafka to MQTT rules</h2>
      <p className="muted">
        Every record produced to the Kafka topic after the rule is made is delivered to MQTT subscribers of the MQTT topic
        ({'{key}'} = the record key), offline persistent sessions included.
      </p>
      <ErrorLine error={error} />
      {notice && <p className="notice">{notice}</p>}
      <form onSubmit={save} className="stacked">
        <label>Kafka topic<input value={form.kafkaTopic} onChange={set('kafkaTopic')} placeholder="device-commands" /></label>
        <label>MQTT topic<input value={form.mqttTopic} onChange={set('mqttTopic')} placeholder="devices/{key}/commands" /></label>
        <label>
          QoS
          <select value={form.qos} onChange={set('qos')} aria-label="QoS">
            <option value="">from the record's mqtt.qos header</option>
            <option value="0">0</option>
            <option value="1">1</option>
            <option value="2">2</option>
          </select>
        </label>
        <label>
          Retain
          <select value={form.retain} onChange={set('retain')} aria-label="Retain">
            <option value="">from the record's mqtt.retain header</option>
            <option value="false">no</option>
            <option value="true">yes</option>
          </select>
        </label>
        <div className="actions">
          <button type="submit">Add Kafka to MQTT rule</button>
        </div>
      </form>
      <table className="list">
        <thead>
          <tr>
            <th>id</th>
            <th>Kafka topic</th>
            <th>MQTT topic</th>
            <th>QoS</th>
            <th>retain</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {rules?.map((r) => (
            <tr key={r.id}>
              <td>{r.id}</td>
              <td className="mono">{r.kafkaTopic}</td>
              <td className="mono">{r.mqttTopic}</td>
              <td>{r.qos ?? 'header'}</td>
              <td>{r.retain === null ? 'header' : r.retain ? 'yes' : 'no'}</td>
              <td>
                <button type="button" className="danger" onClick={() => void remove(r)}>Delete</button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
