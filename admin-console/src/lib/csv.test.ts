import { credentialsFromCsv, parseCsv } from './csv';

describe('parseCsv', () => {
  it('reads quoted fields with commas, doubled quotes and line breaks', () => {
    expect(parseCsv('a,"b,c","say ""hi"""\r\n"x\ny",,z\n')).toEqual([
      ['a', 'b,c', 'say "hi"'],
      ['x\ny', '', 'z'],
    ]);
  });

  it('skips blank lines', () => {
    expect(parseCsv('a,b\n\n1,2')).toEqual([['a', 'b'], ['1', '2']]);
  });
});

describe('credentialsFromCsv', () => {
  it('turns each line into a credential request', () => {
    const lines = credentialsFromCsv(
      'username,password,publish,subscribe,blocked,description\n' +
        'meter-owner,change-me,meters/%c/# meters/%c/status,commands/%c/+,,"field meters, north"\n',
    );
    expect(lines).toEqual([
      {
        line: 2,
        request: {
          username: 'meter-owner',
          clientId: null,
          certificateCn: null,
          password: 'change-me',
          blocked: false,
          publish: ['meters/%c/#', 'meters/%c/status'],
          subscribe: ['commands/%c/+'],
          description: 'field meters, north',
        },
      },
    ]);
  });

  it('reports lines it cannot use, with their line number', () => {
    const lines = credentialsFromCsv('clientId,blocked\n,false\nc1,maybe\nc2,true,extra\nc3,TRUE');
    expect(lines.map((l) => [l.line, l.error ?? 'ok'])).toEqual([
      [2, 'needs a username, clientId or certificateCn'],
      [3, 'blocked must be true or false: maybe'],
      [4, '3 fields, the header names 2'],
      [5, 'ok'],
    ]);
    expect(lines[3].request?.blocked).toBe(true);
  });

  it('refuses unknown columns', () => {
    expect(credentialsFromCsv('user,password\nx,y')[0].error).toContain('unknown column(s): user');
  });
});
