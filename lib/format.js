// How figures are written: significant figures, percentages, durations.

/** 6 significant figures: more than any margin of error justifies, and a third of the bytes. */
export const sig = (/** @type {number} */ x) => Number(x.toPrecision(6));

/** A fraction as a percentage, e.g. 0.0123 → "1.23%" with 2 digits. */
export const percent = (/** @type {number} */ x, digits = 1) => `${(x * 100).toFixed(digits)}%`;

/** A duration as mm:ss. */
export const clock = (/** @type {number} */ ms) => {
  const s = Math.max(0, Math.round(ms / 1000));
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
};
