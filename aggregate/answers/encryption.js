// The encryption answer: per cipher, what a key costs production's driver and PRAGMAs, as × time
// per operation against the same driver without a key: for writes (the geometric mean over the
// operations that write pages), for reads (select) and for opening a database (setup: the open,
// the key derivation, the schema) apart. One declared family (every cipher × the three), judged
// with Holm (family.js); production's cipher and the cheapest named, with their intervals and their
// counted mechanism: an insert's instructions and the components they go to, where both sides
// were counted (aggregate/render/mechanism.js).
import { mechanismOf } from '../render/mechanism.js';
import { CIPHERS, PRODUCTION_CIPHER } from '../../bench/data/ciphers.js';
import { OP_GROUPS } from '../../bench/data/ops.js';
import { PRODUCTION_CONFIG } from '../../bench/data/configs.js';
import { PRODUCTION_DRIVER } from '../../bench/data/drivers.js';
import { caseOf, decided, judgeFamily, runPairs } from './family.js';
import { timeText } from './time-ratio.js';
import { cipherLabel } from '../sections/common.js';

const setup = (/** @type {string} */ cipher) => `${PRODUCTION_CONFIG}/${PRODUCTION_DRIVER}/${cipher}`;
const REFERENCE = setup('none');

/** Every cipher of a full run judged: writes, reads and opening against no key. */
function encryptionOf(/** @type {any} */ doc) {
  const ciphers = CIPHERS.filter((c) => c.name !== 'none').map((c) => c.name);
  const questions = ciphers.flatMap((cipher) =>
    Object.entries(OP_GROUPS).map(([group, ops]) => ({
      cipher,
      group,
      pairs: runPairs(doc, REFERENCE, setup(cipher), [...ops]),
    })),
  );
  const judged = judgeFamily(questions);
  return ciphers
    .map((cipher) => {
      const of = (/** @type {string} */ g) => judged.find((a) => a.cipher === cipher && a.group === g) ?? null;
      return { cipher, writes: of('writes'), reads: of('reads'), opening: of('opening') };
    })
    .filter((c) => c.writes?.judgement || c.reads?.judgement);
}

/** A cipher's cost for ranking: writes' and reads' log time ratios together. */
const cost = (/** @type {ReturnType<typeof encryptionOf>[number]} */ c) =>
  -Math.log(1 + (c.writes?.judgement?.change ?? 0)) - Math.log(1 + (c.reads?.judgement?.change ?? 0));

/** A cipher's three figures in full. */
const full = (/** @type {ReturnType<typeof encryptionOf>[number]} */ c) =>
  `writes ${timeText(c.writes?.judgement ?? null)}, reads ${timeText(c.reads?.judgement ?? null)}, opening ${timeText(c.opening?.judgement ?? null)}`;

/** A cipher in few bytes: its writes and reads as ×, ≈ where undecided. */
const brief = (/** @type {ReturnType<typeof encryptionOf>[number]} */ c) =>
  `${cipherLabel(c.cipher)} ${[c.writes, c.reads]
    .map((a) => (a && decided(a) ? `${(1 / (1 + /** @type {any} */ (a.judgement).change)).toFixed(2)}×` : '≈'))
    .join('/')}`;

/** The answer's words (`line`: the collapsed one-line form): production's cipher and the cheapest in full, the others in brief. */
export function encryptionAnswer(/** @type {any} */ doc) {
  const all = encryptionOf(doc);
  if (!all.length) return null;
  const production = all.find((c) => c.cipher === PRODUCTION_CIPHER);
  const cheapest = all.reduce((a, c) => (cost(c) < cost(a) ? c : a));
  const insert = (/** @type {string} */ cipher) => caseOf(doc, setup(cipher), 'insert');
  const mechanism = production ? mechanismOf(insert('none'), insert(production.cipher), { io: false }) : null;
  const named = [production, cheapest !== production ? cheapest : null].filter((c) => c !== undefined && c !== null);
  const text =
    named
      .map(
        (c) =>
          `${cipherLabel(c.cipher)} (${[c === production ? "Production's" : '', c === cheapest ? 'cheapest' : ''].filter(Boolean).join(', ')}): ${full(c)}`,
      )
      .join('; ') +
    (mechanism ? ` (insert: ${mechanism})` : '') +
    `; others (writes/reads): ${all
      .filter((c) => !named.includes(c))
      .map(brief)
      .join(', ')}`;
  const line = production
    ? `${cipherLabel(production.cipher)} ${brief(production).split(' ').at(-1)} time`
    : brief(cheapest);
  return { text, line };
}
