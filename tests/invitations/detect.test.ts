import { describe, expect, it } from 'vitest';
import { matchColumns, normaliseHeader } from '../../src/main/engine/invitations/columns';
import {
  detectDelimiter,
  detectEncoding,
  detectHeaderRow,
  refuseNonCsv,
} from '../../src/main/engine/invitations/detect';
import Papa from 'papaparse';

const utf16 = (text: string, order: 'le' | 'be', bom: boolean) => {
  const le = Buffer.from(text, 'utf16le');
  const bytes = order === 'le' ? le : Buffer.from(le.map((_, i) => le[i ^ 1]!));
  return bom ? Buffer.concat([Buffer.from(order === 'le' ? [0xff, 0xfe] : [0xfe, 0xff]), bytes]) : bytes;
};

describe('encoding', () => {
  it('recognises UTF-8 with and without a byte order mark', () => {
    expect(detectEncoding(Buffer.from('\uFEFFemail\nzoë@example.org\n'))).toEqual({ encoding: 'utf-8', bomBytes: 3 });
    expect(detectEncoding(Buffer.from('email\nzoë@example.org\n'))).toEqual({ encoding: 'utf-8', bomBytes: 0 });
  });

  it('recognises UTF-16 little and big endian, with or without a mark', () => {
    expect(detectEncoding(utf16('email\nann@example.org\n', 'le', true))).toEqual({
      encoding: 'utf-16le',
      bomBytes: 2,
    });
    expect(detectEncoding(utf16('email\nann@example.org\n', 'be', true))).toEqual({
      encoding: 'utf-16be',
      bomBytes: 2,
    });
    expect(detectEncoding(utf16('email\nann@example.org\n', 'le', false)).encoding).toBe('utf-16le');
    expect(detectEncoding(utf16('email\nann@example.org\n', 'be', false)).encoding).toBe('utf-16be');
  });

  it('falls back to Windows-1252 when the bytes are not UTF-8', () => {
    expect(detectEncoding(Buffer.from('email;name\nzoe@example.org;Zo\xeb\n', 'latin1')).encoding).toBe('windows-1252');
  });

  it('does not mistake a multi-byte character cut at the end of the sample for Windows-1252', () => {
    const text = Buffer.from('email,name\nann@example.org,Zoë');
    expect(detectEncoding(text.subarray(0, text.length - 1)).encoding).toBe('utf-8');
  });
});

describe('files that are not CSV', () => {
  it.each([
    ['an Excel workbook', Buffer.from([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]), /Excel workbook/],
    ['an old workbook', Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1]), /\.xls/],
    ['a PDF', Buffer.from('%PDF-1.7\n...'), /PDF/],
    ['a PNG', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a]), /PNG/],
    ['binary data', Buffer.from([0x41, 0x00, 0x42, 0x43, 0x00, 0x01, 0x02]), /binary data/],
  ])('refuses %s with what to do', (_, bytes, message) => {
    expect(() => refuseNonCsv(bytes, 'utf-8')).toThrow(message);
    expect(() => refuseNonCsv(bytes, 'utf-8')).toThrow(/save it as "CSV UTF-8"/);
  });

  it('accepts text', () => {
    expect(() => refuseNonCsv(Buffer.from('email\tname\r\nann@example.org\tAnn\r\n'), 'utf-8')).not.toThrow();
  });
});

describe('delimiter', () => {
  it.each([
    [',', 'email,first name,last name\nann@example.org,Ann,Lee\nbob@example.org,Bob,Ray\n'],
    [';', 'email;first name;last name\nann@example.org;Ann;Lee\nbob@example.org;Bob;Ray\n'],
    ['\t', 'email\tfirst name\tlast name\nann@example.org\tAnn\tLee\nbob@example.org\tBob\tRay\n'],
    ['|', 'email|first name|last name\nann@example.org|Ann|Lee\nbob@example.org|Bob|Ray\n'],
  ])('finds %j', (delimiter, text) => {
    expect(detectDelimiter(text)).toBe(delimiter);
  });

  it('is not fooled by decimal commas', () => {
    const text = 'email;score;weight\nann@example.org;1,5;72,3\nbob@example.org;2,25;80,1\ncara@example.org;3,0;65,5\n';
    expect(detectDelimiter(text)).toBe(';');
  });

  it('is not fooled by delimiters inside quotes', () => {
    const text = 'email,company,notes\nann@example.org,"Acme; Inc",\"a;b;c\"\nbob@example.org,"Globex; Ltd","d;e"\n';
    expect(detectDelimiter(text)).toBe(',');
  });
});

describe('header row', () => {
  const records = (text: string) => Papa.parse<string[]>(text, { delimiter: ',' }).data;

  it('skips title lines above the header', () => {
    const text = 'Spring cohort 2026,,\nExported 2026-03-01,,\nE-mail,Given name,Surname\nann@example.org,Ann,Lee\n';
    expect(detectHeaderRow(records(text))).toBe(2);
  });

  it('says there is no header when the file starts with data', () => {
    expect(detectHeaderRow(records('ann@example.org,Ann,Lee\nbob@example.org,Bob,Ray\n'))).toBeNull();
  });

  it('takes a row naming known columns as the header, even when the data is wider', () => {
    expect(detectHeaderRow(records('Email\nann@example.org,Ann,Lee\nbob@example.org,Bob,Ray\n'))).toBe(0);
  });

  it('takes an unknown but complete first row as the header', () => {
    expect(detectHeaderRow(records('Courriel electronique,Prenom usuel,Nom\nann@example.org,Ann,Lee\n'))).toBe(0);
  });
});

describe('column matching', () => {
  it('matches synonyms', () => {
    const headers = [
      'E-Mail Address',
      'Given name',
      'Family name',
      'Organisation',
      'User Group',
      'Group owner email',
      'Phone',
    ];
    expect(matchColumns(headers, new Map(), []).map((c) => c.field)).toEqual([
      'email',
      'first_name',
      'last_name',
      'company_name',
      'user_group',
      'user_group_owner_email',
      null,
    ]);
    expect(matchColumns(['mail', 'first name', 'surname', 'company'], new Map(), []).map((c) => c.field)).toEqual([
      'email',
      'first_name',
      'last_name',
      'company_name',
    ]);
  });

  it('prefers what the tenant chose before, including ignoring a column', () => {
    const memory = new Map([
      [normaliseHeader('Work address'), 'email'],
      [normaliseHeader('Email'), ''],
    ]);
    const columns = matchColumns(['Email', 'Work address'], memory, []);
    expect(columns.map((c) => [c.field, c.remembered])).toEqual([
      [null, true],
      ['email', true],
    ]);
  });

  it('finds the email column by its values when no header names it', () => {
    const columns = matchColumns(['Column 1', 'Column 2'], new Map(), [
      ['Ann', 'Bob'],
      ['ann@example.org', 'bob@example.org'],
    ]);
    expect(columns.map((c) => c.field)).toEqual([null, 'email']);
  });

  it('gives a field to one column only', () => {
    expect(matchColumns(['email', 'e-mail'], new Map(), []).map((c) => c.field)).toEqual(['email', null]);
  });
});
