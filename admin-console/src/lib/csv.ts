// Bulk import of credentials from CSV: a header row naming the columns, then one credential a line.
import type { CredentialRequest } from './types';

export const CSV_COLUMNS = [
  'username',
  'clientId',
  'certificateCn',
  'password',
  'blocked',
  'publish',
  'subscribe',
  'description',
] as const;

/** Rows of fields; fields may be quoted with "", a quote inside doubled (RFC 4180). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c === '"' && field === '') {
      quoted = true;
    } else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else {
      field += c;
    }
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((r) => !(r.length === 1 && r[0].trim() === ''));
}

export interface ImportLine {
  line: number;
  request?: CredentialRequest;
  error?: string;
}

function list(cell: string | undefined): string[] {
  return (cell ?? '')
    .split(/[\s;]+/)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

function optional(cell: string | undefined): string | null {
  const value = (cell ?? '').trim();
  return value === '' ? null : value;
}

/** Credential requests from CSV text; lines that cannot be read carry an error instead. */
export function credentialsFromCsv(text: string): ImportLine[] {
  const rows = parseCsv(text);
  if (rows.length === 0) {
    return [];
  }
  const header = rows[0].map((h) => h.trim());
  const unknown = header.filter((h) => !(CSV_COLUMNS as readonly string[]).includes(h));
  if (unknown.length > 0) {
    return [{ line: 1, error: `unknown column(s): ${unknown.join(', ')} (known: ${CSV_COLUMNS.join(', ')})` }];
  }
  return rows.slice(1).map((row, i) => {
    const line = i + 2;
    const cell = (name: string) => {
      const index = header.indexOf(name);
      return index < 0 ? undefined : row[index];
    };
    if (row.length > header.length) {
      return { line, error: `${row.length} fields, the header names ${header.length}` };
    }
    const blocked = (cell('blocked') ?? '').trim().toLowerCase();
    if (!['', 'true', 'false'].includes(blocked)) {
      return { line, error: `blocked must be true or false: ${blocked}` };
    }
    const request: CredentialRequest = {
      username: optional(cell('username')),
      clientId: optional(cell('clientId')),
      certificateCn: optional(cell('certificateCn')),
      password: optional(cell('password')),
      blocked: blocked === 'true',
      publish: list(cell('publish')),
      subscribe: list(cell('subscribe')),
      description: optional(cell('description')),
    };
    if (!request.username && !request.clientId && !request.certificateCn) {
      return { line, error: 'needs a username, clientId or certificateCn' };
    }
    return { line, request };
  });
}
