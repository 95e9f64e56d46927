import { expect } from 'vitest';
import { expectNoLeaks, findLeaks, type LeakRules } from '@wildo/backend-api/testing';

/**
 * What the synthetic agency over-exposes and no declaration names: its rate sheet, guests (passports, phones,
 * e-mails) at every depth, raw HTML with scripts, foreign hosts, internal hosts and its own error texts.
 */
export const AGENCY_LEAK_RULES: LeakRules = {
  fields: [
    'net',
    'margin',
    'commission',
    'guests',
    'passport',
    'phone',
    'email',
    'hostContact',
    'description_html',
    'lastUsedBy',
    'history',
    'internalNote',
    'card',
    'processorFee',
    'affiliateTracking',
    'editor',
    'searchedBy',
    'localTips',
    'boardType',
    'freeCancellationUntil',
    'guest_passport',
  ],
  values: [
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
    /postgres:\/\//,
  ],
};

/** Fails on any leak in what a file's calls answered; the control proves the rules find the agency's own leaks. */
export function expectAnswersLeakNothing(answers: readonly unknown[], rawAgencyAnswer: unknown): void {
  expect(
    findLeaks(rawAgencyAnswer, AGENCY_LEAK_RULES).length,
    'the rules find what the agency over-exposes',
  ).toBeGreaterThan(0);
  expectNoLeaks(answers, AGENCY_LEAK_RULES);
}
