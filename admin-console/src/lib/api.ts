// The admin REST API of session-service (/api/v1), called with the bearer token the login got.

import type { ApiErrorBody, IssuedToken } from './types';

const TOKEN_KEY = 'tributary.console.token';

export class ApiError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

export function storedToken(): string | null {
  return sessionStorage.getItem(TOKEN_KEY);
}

export function forgetToken(): void {
  sessionStorage.removeItem(TOKEN_KEY);
}

/** Called when the API answers 401: the console goes back to its login page. */
let onUnauthorized: () => void = () => {};
export function setUnauthorizedHandler(handler: () => void): void {
  onUnauthorized = handler;
}

export async function login(username: string, password: string): Promise<void> {
  const response = await fetch('/api/v1/admin/tokens', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (response.status !== 201) {
    throw new ApiError(response.status, await errorText(response));
  }
  const body = (await response.json()) as IssuedToken;
  sessionStorage.setItem(TOKEN_KEY, body.token);
}

export async function logout(): Promise<void> {
  const token = storedToken();
  forgetToken();
  if (token) {
    await fetch('/api/v1/admin/tokens', { method: 'DELETE', headers: { Authorization: `Bearer ${token}` } });
  }
}

async function errorText(response: Response): Promise<string> {
  const text = await response.text();
  try {
    const body = JSON.parse(text) as Partial<ApiErrorBody>;
    return body.error ?? `HTTP ${response.status}`;
  } catch {
    return text || `HTTP ${response.status}`;
  }
}

/** A query string of the parameters that have a value. */
export function query(params: Record<string, string | number | boolean | null | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== null && value !== undefined && value !== '') {
      search.set(key, String(value));
    }
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

export async function api<T>(path: string, init: RequestInit = {}): Promise<T> {
  const headers = new Headers(init.headers);
  headers.set('Authorization', `Bearer ${storedToken() ?? ''}`);
  if (init.body && !headers.has('Content-Type')) {
    headers.set('Content-Type', 'application/json');
  }
  const response = await fetch(`/api/v1${path}`, { ...init, headers });
  if (response.status === 401) {
    forgetToken();
    onUnauthorized();
  }
  if (!response.ok) {
    throw new ApiError(response.status, await errorText(response));
  }
  if (response.status === 204) {
    return undefined as T;
  }
  return (await response.json()) as T;
}
