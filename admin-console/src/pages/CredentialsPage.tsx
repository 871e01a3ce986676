import { useEffect, useState, type FormEvent } from 'react';
import { api, query } from '../lib/api';
import type { Credential, CredentialPage, CredentialRequest } from '../lib/types';
import { credentialsFromCsv, CSV_COLUMNS } from '../lib/csv';
import { Pager } from '../components/Pager';
import { ErrorLine, message } from '../components/ErrorLine';

const SIZE = 50;

interface Form {
  id: number | null;
  username: string;
  clientId: string;
  certificateCn: string;
  password: string;
  blocked: boolean;
  publish: string;
  subscribe: string;
  description: string;
}

const blank: Form = { id: null, username: '', clientId: '', certificateCn: '', password: '', blocked: false, publish: '', subscribe: '', description: '' };

function toForm(c: Credential): Form {
  return {
    id: c.id,
    username: c.username ?? '',
    clientId: c.clientId ?? '',
    certificateCn: c.certificateCn ?? '',
    password: '',
    blocked: c.blocked,
    publish: c.publish.join('\n'),
    subscribe: c.subscribe.join('\n'),
    description: c.description ?? '',
  };
}

export function toRequest(f: Form): CredentialRequest {
  const lines = (text: string) => text.split('\n').map((s) => s.trim()).filter((s) => s !== '');
  const orNull = (s: string) => (s.trim() === '' ? null : s.trim());
  return {
    username: orNull(f.username),
    clientId: orNull(f.clientId),
    certificateCn: orNull(f.certificateCn),
    // on update, no password keeps the stored one
    password: f.password === '' ? null : f.password,
    blocked: f.blocked,
    publish: lines(f.publish),
    subscribe: lines(f.subscribe),
    description: orNull(f.description),
  };
}

export function CredentialsPage() {
  const [page, setPage] = useState(0);
  const [results, setResults] = useState<CredentialPage | null>(null);
  const [form, setForm] = useState<Form | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [csv, setCsv] = useState('');
  const [reload, setReload] = useState(0);

  useEffect(() => {
    api<CredentialPage>('/auth/credentials' + query({ page, size: SIZE }))
      .then((r) => setResults(r))
      .catch((e) => setError(message(e)));
  }, [page, reload]);

  async function save(e: FormEvent) {
    e.preventDefault();
    if (!form) return;
    try {
      const body = JSON.stringify(toRequest(form));
      if (form.id === null) {
        await api<Credential>('/auth/credentials', { method: 'POST', body });
      } else {
        await api<Credential>(`/auth/credentials/${form.id}`, { method: 'PUT', body });
      }
      setNotice('Saved.');
      setForm(null);
      setError(null);
      setReload((n) => n + 1);
    } catch (err) {
      setError(message(err));
    }
  }

  async function remove(c: Credential) {
    if (!window.confirm(`Delete credential ${c.id}? Its connections are closed.`)) return;
    try {
      await api<void>(`/auth/credentials/${c.id}`, { method: 'DELETE' });
      setReload((n) => n + 1);
    } catch (err) {
      setError(message(err));
    }
  }

  async function importCsv() {
    const lines = credentialsFromCsv(csv);
    let created = 0;
    const failures: string[] = [];
    for (const line of lines) {
      if (line.error || !line.request) {
        failures.push(`line ${line.line}: ${line.error}`);
        continue;
      }
      try {
        await api<Credential>('/auth/credentials', { method: 'POST', body: JSON.stringify(line.request) });
        created++;
      } catch (err) {
        failures.push(`line ${line.line}: ${message(err)}`);
      }
    }
    setNotice(`Imported ${created} credential(s).`);
    setError(failures.length > 0 ? failures.join('; ') : null);
    setReload((n) => n + 1);
  }

  const set = (name: keyof Form) => (e: { target: { value: string } }) => form && setForm({ ...form, [name]: e.target.value });
  const pages = results ? Math.max(1, Math.ceil(results.total / SIZE)) : 1;
  return (
    <div className="split">
      <div>
        <h2>Credentials and ACLs</h2>
        <ErrorLine error={error} />
        {notice && <p className="notice">{notice}</p>}
        <div className="actions">
          <button type="button" onClick={() => setForm(blank)}>New credential</button>
        </div>
        <table className="list">
          <thead>
            <tr>
              <th>id</th>
              <th>user name</th>
              <th>client id</th>
              <th>certificate CN</th>
              <th>publish</th>
              <th>subscribe</th>
              <th>blocked</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {results?.items.map((c) => (
              <tr key={c.id}>
                <td>{c.id}</td>
                <td>{c.username ?? '–'}</td>
                <td>{c.clientId ?? '–'}</td>
                <td>{c.certificateCn ?? '–'}</td>
                <td className="mono">{c.publish.join(' ')}</td>
                <td className="mono">{c.subscribe.join(' ')}</td>
                <td>{c.blocked ? 'yes' : 'no'}</td>
                <td>
                  <button type="button" onClick={() => setForm(toForm(c))}>Edit</button>
                  <button type="button" className="danger" onClick={() => void remove(c)}>Delete</button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <Pager page={page + 1} hasPrevious={page > 0} hasNext={page + 1 < pages} onPrevious={() => setPage(page - 1)} onNext={() => setPage(page + 1)} />
        <h3>Import from CSV</h3>
        <p className="muted">
          Header row with any of: {CSV_COLUMNS.join(', ')}. ACL lists separated by spaces or ';'. Each line is created
          as a new credential.
        </p>
        <textarea rows={6} value={csv} onChange={(e) => setCsv(e.target.value)}
          placeholder={'username,password,publish,subscribe\nmeter-owner,change-me,meters/%c/#,commands/%c/+'} />
        <div className="actions">
          <input type="file" accept=".csv,text/csv" onChange={(e) => {
            const file = e.target.files?.[0];
            if (file) void file.text().then(setCsv);
          }} />
          <button type="button" disabled={csv.trim() === ''} onClick={() => void importCsv()}>Import</button>
        </div>
      </div>
      {form && (
        <aside className="details">
          <form onSubmit={save} className="stacked">
            <h3>{form.id === null ? 'New credential' : `Credential ${form.id}`}</h3>
            <label>User name<input value={form.username} onChange={set('username')} /></label>
            <label>Client id<input value={form.clientId} onChange={set('clientId')} /></label>
            <label>Certificate CN<input value={form.certificateCn} onChange={set('certificateCn')} /></label>
            <label>
              Password{form.id !== null && ' (empty keeps the current one)'}
              <input type="password" value={form.password} onChange={set('password')} autoComplete="new-password" />
            </label>
            <label className="inline">
              <input type="checkbox" checked={form.blocked} onChange={(e) => setForm({ ...form, blocked: e.target.checked })} /> blocked
            </label>
            <label>Publish ACL (one filter a line; %c, %u, %cn)<textarea rows={3} value={form.publish} onChange={set('publish')} /></label>
            <label>Subscribe ACL<textarea rows={3} value={form.subscribe} onChange={set('subscribe')} /></label>
            <label>Description<input value={form.description} onChange={set('description')} /></label>
            <div className="actions">
              <button type="submit">Save</button>
              <button type="button" onClick={() => setForm(null)}>Cancel</button>
            </div>
          </form>
        </aside>
      )}
    </div>
  );
}
