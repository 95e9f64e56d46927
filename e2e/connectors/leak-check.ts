import { expect } from 'vitest';

/** Field names the synthetic agency over-exposes and no declaration names. */
export const AGENCY_SECRET_FIELDS = [
  'net',
  'margin',
  'commission',
  'guests',
  'passport',
  'phone',
  'email',
  'hostContact',
  'description_html',
  'host',
  'lastUsedBy',
  'history',
  'internalNote',
  'card',
  'processorFee',
  'affiliateTracking',
  'editor',
  'searchedBy',
  'trace',
  'localTips',
  'boardType',
  'freeCancellationUntil',
];

/** Values it over-exposes: passports, phones, e-mails, foreign hosts, internal hosts, its own error texts. */
export const AGENCY_SECRET_VALUES = [
  /DEMO-PASS-\d+/,
  /\+00 000 000/,
  /@guest\.example/,
  /partner-photos\.example/,
  /partner-hotels\.example/,
  /unknown-host\.example/,
  /evil\.example/,
  /agency\.internal/,
  /agency-internal-/,
  /10\.0\.4\.7/,
  /PET-4/,
  /ledger row/,
  /stays_v2/,
  /<script/i,
  /agency_rw/,
];

/** Placeholder until governance's leak checker lands: fails on any forbidden key (at any depth) or value. */
export function expectNoLeaks(values: readonly unknown[]): void {
  const keys = new Set<string>();
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object')
      for (const [key, child] of Object.entries(value)) {
        keys.add(key);
        walk(child);
      }
  };
  values.forEach(walk);
  expect([...keys].filter((key) => AGENCY_SECRET_FIELDS.includes(key))).toEqual([]);
  const text = JSON.stringify(values);
  expect(AGENCY_SECRET_VALUES.filter((pattern) => pattern.test(text)).map(String)).toEqual([]);
}
