// The extra-round rule (bench/run/extra-rounds.js): which imprecise cases the next extra round measures.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nextExtraRound } from '../bench/run/extra-rounds.js';

const cases = (/** @type {number[]} */ rses) => rses.map((rse, i) => ({ c: `case${i}`, rse }));

test('an extra round takes the cases within a factor 2 of the least precise one, least precise first', () => {
  // 20 cases; with minCases 2 the factor-2 rule decides: 10, 8, 6, 5 are ≥ 10/2
  const imprecise = cases([1.1, 10, 2, 6, 8, 5, 4.9, 1.5, 3, 2.5, 1.2, 1.3, 1.4, 1.6, 1.7, 1.8, 1.9, 2.1, 2.2, 2.3]);
  assert.deepEqual(nextExtraRound(imprecise, 2), ['case1', 'case4', 'case3', 'case5']);
});

test('an extra round takes at least minCases cases, the least precise ones, when the factor 2 would take fewer', () => {
  const imprecise = cases([50, 1.5, 1.2, 3, 2]);
  assert.deepEqual(nextExtraRound(imprecise, 3), ['case0', 'case3', 'case4']);
  // fewer imprecise cases than minCases: all of them
  assert.deepEqual(nextExtraRound(cases([2, 9]), 16), ['case1', 'case0']);
});

test('a case whose precision is unknown (Infinity) goes first, and an empty list gives an empty extra round', () => {
  assert.deepEqual(nextExtraRound(cases([3, Infinity, 2]), 1), ['case1']);
  assert.deepEqual(nextExtraRound([], 16), []);
});

test('the input is not reordered', () => {
  const imprecise = cases([1, 3, 2]);
  const copy = structuredClone(imprecise);
  nextExtraRound(imprecise, 1);
  assert.deepEqual(imprecise, copy);
});
