// Paging through keyset results: the API returns the key after which the next page starts; going back needs the
// keys of the pages seen before, kept here as a stack (the first page starts at null).

export interface KeysetState<K> {
  /** Start keys of the pages up to the current one; the last is the current page's. */
  starts: (K | null)[];
}

export function firstPage<K>(): KeysetState<K> {
  return { starts: [null] };
}

export function currentStart<K>(state: KeysetState<K>): K | null {
  return state.starts[state.starts.length - 1];
}

export function pageNumber<K>(state: KeysetState<K>): number {
  return state.starts.length;
}

export function nextPage<K>(state: KeysetState<K>, next: K | null): KeysetState<K> {
  return next === null ? state : { starts: [...state.starts, next] };
}

export function previousPage<K>(state: KeysetState<K>): KeysetState<K> {
  return state.starts.length <= 1 ? state : { starts: state.starts.slice(0, -1) };
}

export function hasPrevious<K>(state: KeysetState<K>): boolean {
  return state.starts.length > 1;
}
