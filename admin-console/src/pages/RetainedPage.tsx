import { useEffect, useState, type FormEvent } from 'react';
import { api, query } from '../lib/api';
import type { Retained, RetainedResults } from '../lib/types';
import { currentStart, firstPage, hasPrevious, nextPage, pageNumber, previousPage, type KeysetState } from '../lib/keyset';
import { base64ToBytes, formatBytes, formatTime, hexDump } from '../lib/format';
import { Pager } from '../components/Pager';
import { ErrorLine, message } from '../components/ErrorLine';

const SIZE = 50;

export function RetainedPage() {
  const [prefix, setPrefix] = useState('');
  const [applied, setApplied] = useState('');
  const [paging, setPaging] = useState<KeysetState<string>>(firstPage());
  const [results, setResults] = useState<RetainedResults | null>(null);
  const [selected, setSelected] = useState<Retained | null>(null);
  const [asHex, setAsHex] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [reload, setReload] = useState(0);

  useEffect(() => {
    api<RetainedResults>('/search/retained' + query({ prefix: applied, after: currentStart(paging), limit: SIZE }))
      .then((r) => {
        setResults(r);
        setError(null);
      })
      .catch((e) => setError(message(e)));
  }, [applied, paging, reload]);

  function search(e: FormEvent) {
    e.preventDefault();
    setApplied(prefix);
    setPaging(firstPage());
  }

  async function remove(topic: string) {
    if (!window.confirm(`Delete the retained message of ${topic}?`)) return;
    try {
      await api<void>('/retained' + query({ topic }), { method: 'DELETE' });
      setSelected(null);
      setReload((n) => n + 1);
    } catch (e) {
      setError(message(e));
    }
  }

  return (
    <div className="split">
      <div>
        <h2>Retained messages</h2>
        <form className="search" onSubmit={search}>
          <input name="prefix" placeholder="topic prefix" value={prefix} onChange={(e) => setPrefix(e.target.value)} />
          <button type="submit">Browse</button>
        </form>
        <ErrorLine error={error} />
        {results && results.items.length === 0 && <p className="muted">No retained message under this prefix.</p>}
        <table className="list">
          <thead>
            <tr>
              <th>topic</th>
              <th>QoS</th>
              <th>size</th>
              <th>updated</th>
            </tr>
          </thead>
          <tbody>
            {results?.items.map((r) => (
              <tr key={r.topic} onClick={() => setSelected(r)} className={selected?.topic === r.topic ? 'selected' : ''}>
                <td className="mono">{r.topic}</td>
                <td>{r.qos}</td>
                <td>{formatBytes(r.payloadSize)}</td>
                <td>{formatTime(r.updatedAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <Pager page={pageNumber(paging)} hasPrevious={hasPrevious(paging)} hasNext={!!results?.next}
          onPrevious={() => setPaging(previousPage(paging))} onNext={() => setPaging(nextPage(paging, results?.next ?? null))} />
      </div>
      {selected && (
        <aside className="details">
          <h3 className="mono">{selected.topic}</h3>
          <div className="actions">
            <label>
              <input type="checkbox" checked={asHex || selected.payloadUtf8 === null} disabled={selected.payloadUtf8 === null}
                onChange={(e) => setAsHex(e.target.checked)} /> hex
            </label>
            <button type="button" className="danger" onClick={() => void remove(selected.topic)}>
              Delete
            </button>
          </div>
          <pre className="payload">
            {asHex || selected.payloadUtf8 === null ? hexDump(base64ToBytes(selected.payloadBase64)) : selected.payloadUtf8}
          </pre>
          <p className="muted">expires: {formatTime(selected.expiresAt)}</p>
        </aside>
      )}
    </div>
  );
}
