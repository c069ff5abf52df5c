// lib/format.js: the one set of number formatters, as the summary, the README, the shootout and
// the PR comment write their figures.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MINUS, driverText, megabytes, num, rate, sign, signedPercent, signedPoints } from '../lib/format.js';

test('rates: whole and thousands separated from 100, else 1 or 2 decimals', () => {
  assert.deepEqual([12345.6, 100, 99.96, 45.64, 9.999, 1.234].map(rate), [
    '12,346',
    '100',
    '100.0',
    '45.6',
    '10.00',
    '1.23',
  ]);
});

test('3 significant figures, thousands separated; sizes in MB', () => {
  assert.deepEqual([1234567, 999.4, 45.64, 0.12345].map(num), ['1,230,000', '999', '45.6', '0.123']);
  assert.equal(megabytes(1234567), '1.23 MB');
});

test('signed percentages: U+2212 for a minus unless told, one decimal, whole from a bound', () => {
  assert.equal(MINUS, '\u2212');
  assert.equal(signedPercent(0.1234), '+12.3%');
  assert.equal(signedPercent(-0.034), '\u22123.4%');
  assert.equal(signedPercent(0), '+0.0%');
  assert.equal(signedPercent(-1.2345, 100), '\u2212123%');
  assert.equal(signedPercent(0.994, 100), '+99.4%');
  assert.equal(signedPoints(14.4, 10), '+14%');
  assert.equal(signedPoints(-3.44, 10), '\u22123.4%');
  assert.equal(sign(-2), '\u2212');
  assert.equal(sign(-2, '-'), '-', "the README's compact cells");
  assert.equal(sign(0, '-'), '+');
});

test('a driver is named one way in every report: name, version, SQLite and SQLite3MC, or why it is missing', () => {
  const mc = {
    name: 'mc',
    status: 'ok',
    version: '12.4.1',
    sqlite: '3.50.4',
    sqlite3mc: 'SQLite3 Multiple Ciphers 2.2.4',
  };
  assert.equal(driverText(mc), 'mc 12.4.1 (SQLite 3.50.4, SQLite3 Multiple Ciphers 2.2.4)');
  assert.equal(driverText({ ...mc, sqlite3mc: undefined }, { name: false }), '12.4.1 (SQLite 3.50.4)');
  assert.equal(
    driverText({ name: 'node:sqlite', status: 'skipped', reason: 'needs Node 22.13' }),
    'node:sqlite skipped: needs Node 22.13',
  );
});
