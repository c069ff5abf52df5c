// Text widths for vega without a canvas: Helvetica's advance widths (the AFM metrics, which Arial
// and Liberation Sans share), per character, in thousandths of the font size. vega's own estimate
// (0.8 em per character) reserves half again the room labels take, so charts grew wide and their
// labels were cut; this table keeps layout as deterministic as the estimate (no font on the machine
// is read) and close to what a browser draws.
// prettier-ignore
const ASCII = [
  278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, // space ! " # $ % & ' ( ) * + , - . /
  556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, // 0-9 : ; < = > ?
  1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, // @ A-O
  667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556, // P-Z [ \ ] ^ _
  333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, // ` a-o
  556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584, // p-z { | } ~
];
/** Characters outside ASCII (−, ±, ≈, …): about a digit's width. */
const OTHER = 584;

/**
 * The width in px of a text at a font size, bold about 8% wider.
 * @param {string} text
 * @param {number} size
 * @param {boolean} bold
 */
export function textWidth(text, size, bold = false) {
  let units = 0;
  for (const ch of text) {
    const c = /** @type {number} */ (ch.codePointAt(0));
    units += c >= 32 && c < 127 ? ASCII[c - 32] : OTHER;
  }
  return (units / 1000) * size * (bold ? 1.08 : 1);
}

/**
 * vega's textMetrics.width, from the table.
 * @param {any} item a text mark item
 * @param {any} [text] the text, else the item's
 */
export function vegaTextWidth(item, text) {
  const t = text ?? item.text;
  const size = item.fontSize ?? 11;
  const bold = item.fontWeight === 'bold' || Number(item.fontWeight) >= 600;
  const lines = Array.isArray(t) ? t : [t];
  return Math.max(0, ...lines.map((l) => textWidth(l == null ? '' : String(l), size, bold)));
}
