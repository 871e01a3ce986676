import { currentStart, firstPage, hasPrevious, nextPage, pageNumber, previousPage } from './keyset';

describe('keyset paging', () => {
  it('walks forward by the keys the API returns and back through the ones seen', () => {
    let state = firstPage<string>();
    expect(currentStart(state)).toBeNull();
    expect(hasPrevious(state)).toBe(false);
    state = nextPage(state, 'c-050');
    state = nextPage(state, 'c-100');
    expect(pageNumber(state)).toBe(3);
    expect(currentStart(state)).toBe('c-100');
    state = previousPage(state);
    expect(currentStart(state)).toBe('c-050');
    state = previousPage(previousPage(state));
    expect(currentStart(state)).toBeNull();
    expect(pageNumber(state)).toBe(1);
  });

  it('stays on the last page when there is no next key', () => {
    const state = nextPage(firstPage<string>(), null);
    expect(pageNumber(state)).toBe(1);
  });
});
