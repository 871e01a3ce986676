import { useEffect, useRef, useState, type FormEvent } from 'react';
import mqtt, { type MqttClient } from 'mqtt';
import { defaultWebSocketUrl } from '../lib/wsUrl';
import { ErrorLine } from '../components/ErrorLine';

interface Received {
  at: string;
  topic: string;
  payload: string;
  qos: number;
  retain: boolean;
}

const MAX_MESSAGES = 200;

/** A small MQTT 5 client over WebSocket, in the browser, for quick checks of the broker. */
export function MqttClientPage() {
  const [url, setUrl] = useState(defaultWebSocketUrl(window.location));
  const [clientId, setClientId] = useState(`console-${Math.random().toString(16).slice(2, 10)}`);
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [state, setState] = useState('disconnected');
  const [error, setError] = useState<string | null>(null);
  const [filter, setFilter] = useState('#');
  const [subQos, setSubQos] = useState(0);
  const [topic, setTopic] = useState('console/test');
  const [payload, setPayload] = useState('hello');
  const [pubQos, setPubQos] = useState(0);
  const [retain, setRetain] = useState(false);
  const [messages, setMessages] = useState<Received[]>([]);
  const client = useRef<MqttClient | null>(null);

  useEffect(() => () => void client.current?.end(true), []);

  function connect(e: FormEvent) {
    e.preventDefault();
    client.current?.end(true);
    setError(null);
    setState('connecting');
    const c = mqtt.connect(url, {
      clientId,
      username: username || undefined,
      password: password || undefined,
      protocolVersion: 5,
      reconnectPeriod: 0,
      connectTimeout: 10000,
    });
    c.on('connect', () => setState('connected'));
    c.on('close', () => setState('disconnected'));
    c.on('error', (err) => setError(err.message));
    c.on('disconnect', (packet) => setError(`the broker disconnected us (reason ${packet.reasonCode ?? 0})`));
    c.on('message', (t, p, packet) => {
      const received = { at: new Date().toISOString(), topic: t, payload: new TextDecoder().decode(p), qos: packet.qos, retain: packet.retain };
      setMessages((m) => [received, ...m].slice(0, MAX_MESSAGES));
    });
    client.current = c;
  }

  function subscribe(e: FormEvent) {
    e.preventDefault();
    client.current?.subscribe(filter, { qos: subQos as 0 | 1 | 2 }, (err, granted) => {
      if (err) setError(err.message);
      else setError(granted?.some((g) => g.qos > 2) ? `SUBACK refused ${filter} (0x${granted[0].qos.toString(16)})` : null);
    });
  }

  function publish(e: FormEvent) {
    e.preventDefault();
    client.current?.publish(topic, payload, { qos: pubQos as 0 | 1 | 2, retain }, (err) => err && setError(err.message));
  }

  const connected = state === 'connected';
  return (
    <div>
      <h2>MQTT client (WebSocket)</h2>
      <form className="search" onSubmit={connect}>
        <input name="url" size={36} value={url} onChange={(e) => setUrl(e.target.value)} />
        <input name="clientId" value={clientId} onChange={(e) => setClientId(e.target.value)} />
        <input name="username" placeholder="user name" value={username} onChange={(e) => setUsername(e.target.value)} />
        <input name="password" type="password" placeholder="password" value={password} onChange={(e) => setPassword(e.target.value)} />
        {connected ? (
          <button type="button" onClick={() => client.current?.end()}>Disconnect</button>
        ) : (
          <button type="submit">Connect</button>
        )}
        <span className={connected ? 'ok' : 'muted'}>{state}</span>
      </form>
      <ErrorLine error={error} />
      <form className="search" onSubmit={subscribe}>
        <input name="filter" value={filter} onChange={(e) => setFilter(e.target.value)} />
        <select value={subQos} onChange={(e) => setSubQos(Number(e.target.value))}>
          <option value={0}>QoS 0</option>
          <option value={1}>QoS 1</option>
          <option value={2}>QoS 2</option>
        </select>
        <button type="submit" disabled={!connected}>Subscribe</button>
      </form>
      <form className="search" onSubmit={publish}>
        <input name="topic" value={topic} onChange={(e) => setTopic(e.target.value)} />
        <input name="payload" size={30} value={payload} onChange={(e) => setPayload(e.target.value)} />
        <select value={pubQos} onChange={(e) => setPubQos(Number(e.target.value))}>
          <option value={0}>QoS 0</option>
          <option value={1}>QoS 1</option>
          <option value={2}>QoS 2</option>
        </select>
        <label className="inline">
          <input type="checkbox" checked={retain} onChange={(e) => setRetain(e.target.checked)} /> retain
        </label>
        <button type="submit" disabled={!connected}>Publish</button>
      </form>
      <table className="list">
        <thead>
          <tr>
            <th>received</th>
            <th>topic</th>
            <th>payload</th>
            <th>QoS</th>
          </tr>
        </thead>
        <tbody>
          {messages.map((m, i) => (
            <tr key={i}>
              <td>{m.at.substring(11, 23)}</td>
              <td className="mono">{m.topic}{m.retain ? ' (retained)' : ''}</td>
              <td className="mono">{m.payload}</td>
              <td>{m.qos}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
