/**
 * Quantities of goods (decision 067): decimals with at most three places (12.345 kg), kept as integer thousandths so
 * that sums of stock movements are exact on both databases. The API and the screens speak decimals (and so do the
 * schemas, whose output a route's action sends on to the API); the columns, ledgers and rules speak thousandths, and
 * `toColumns`/`toRecord` (server/modules/resource/rows.ts) turn one into the other.
 */
export const QUANTITY_SCALE = 1000;
/** The largest quantity one field takes (in the goods' unit), unless its declaration allows less. */
export const MAX_QUANTITY = 1_000_000;

const DECIMAL = /^(-)?(\d+)(?:\.(\d*))?$/;

export type QuantityParse = { thousandths: number } | { problem: "notNumber" | "places" | "tooLarge" };

/**
 * A typed or sent quantity (12.345, "12.345", "12") as thousandths, or why it is not one. Read from its decimal text,
 * never by multiplying a float (0.29 × 1000 is 289.99999999999994).
 */
export function parseQuantity(value: unknown): QuantityParse {
  let text: string;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return { problem: "notNumber" };
    text = String(value);
    // JavaScript writes below 1e-6 and from 1e21 in exponent form: the first has too many places, the second is too large.
    if (/e/i.test(text)) return { problem: Math.abs(value) >= 1 ? "tooLarge" : "places" };
  } else if (typeof value === "string") {
    text = value.trim();
  } else {
    return { problem: "notNumber" };
  }
  const match = DECIMAL.exec(text);
  if (!match) return { problem: "notNumber" };
  const [, minus, whole, fraction = ""] = match;
  if (fraction.replace(/0+$/, "").length > 3) return { problem: "places" };
  if (whole.replace(/^0+/, "").length > 7) return { problem: "tooLarge" };
  const thousandths = Number(whole) * QUANTITY_SCALE + Number(fraction.slice(0, 3).padEnd(3, "0"));
  return { thousandths: minus && thousandths !== 0 ? -thousandths : thousandths };
}

/** A decimal the schema accepted (at most 3 places) as the thousandths its column holds. */
export function quantityToThousandths(quantity: number): number {
  const parsed = parseQuantity(quantity);
  if ("problem" in parsed) throw new Error(`not a quantity: ${quantity}`);
  return parsed.thousandths;
}

/** Thousandths as the decimal the API answers (12345 → 12.345). */
export function thousandthsToQuantity(thousandths: number): number {
  return thousandths / QUANTITY_SCALE;
}
